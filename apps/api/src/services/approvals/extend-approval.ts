import { GATE_TIMEOUT_MAX_MS, Problem } from "@fleet/contracts";
import { approvalGates, eq } from "@fleet/db";
import type { TenantPrincipal } from "../../auth/principal.ts";
import { type Actor, recordAudit } from "../shared/audit.ts";
import type { ServiceContext } from "../shared/context.ts";
import { type GateWithWebhookId, gatesResolved } from "../shared/frames.ts";
import { answerReason } from "./answer-reason.ts";
import { type GateRow, notifyGates, resolverOf, standingAnswer, toGateItem } from "./gate-view.ts";
import { lockOpenGate, notApprover } from "./lock-gate.ts";
import { approvalsOf, mayAnswer } from "./votes.ts";

export interface ExtendInput {
  workspace_id: string;
  gate_id: string;
  extend_ms: number;
  reason: string;
}

/**
 * Moves a pending gate's deadline later, once: by whoever may answer it, within its rule's
 * max_extension_ms and never past 24 h after it was requested. Waiting runners are woken to read the new
 * `timeout_at`. The escalation time stays where it was: an extension buys time to answer, it does not
 * postpone telling the escalation group.
 */
export async function extendGate(
  ctx: ServiceContext,
  principal: TenantPrincipal,
  actor: Actor,
  input: ExtendInput,
) {
  const now = ctx.now();
  const result = await ctx.db.transaction(
    async (tx): Promise<{ gate: GateRow } | { closed: GateRow; timedOut?: GateWithWebhookId[] }> => {
      const locked = await lockOpenGate(tx, principal.tenantId, input, now);
      if ("closed" in locked) return locked;
      const { gate } = locked;
      if (!mayAnswer(gate, principal, now)) throw notApprover(gate);
      if (gate.extendedAt !== null) {
        throw new Problem("UZ-APPROVAL-007", {
          detail: `The gate's deadline was already extended (by ${gate.extendedBy}); a gate is extended once.`,
          gate_id: gate.id,
          current_state: "extended",
        });
      }
      if (input.extend_ms > gate.maxExtensionMs) {
        throw new Problem("UZ-APPROVAL-002", {
          detail:
            gate.maxExtensionMs === 0
              ? `The gate's rule "${gate.ruleName}" allows no extension.`
              : `extend_ms may be at most ${gate.maxExtensionMs} for this gate (its rule's max_extension_ms).`,
        });
      }
      const timeoutAt = gate.timeoutAt + input.extend_ms;
      const ceiling = gate.requestedAt + GATE_TIMEOUT_MAX_MS;
      if (timeoutAt > ceiling) {
        throw new Problem("UZ-APPROVAL-002", {
          detail: `A gate's deadline is at most 24 h after it was requested; extend_ms may be at most ${ceiling - gate.timeoutAt} now.`,
        });
      }
      // Required and non-blank by the contract; masked as every answer's reason is.
      const reason = (await answerReason(tx, ctx.vault, gate, input.reason)) ?? input.reason;
      const [extended] = await tx
        .update(approvalGates)
        .set({
          timeoutAt,
          extendedAt: now,
          extendedBy: resolverOf(principal),
          extensionReason: reason,
          updatedAt: now,
        })
        .where(eq(approvalGates.id, gate.id))
        .returning();
      await recordAudit(tx, {
        actor,
        at: now,
        tenantId: gate.tenantId,
        workspaceId: gate.workspaceId,
        action: "approval.extend",
        target: `approval_gate:${gate.id}`,
        details: {
          fleet_id: gate.fleetId,
          extend_ms: input.extend_ms,
          from: gate.timeoutAt,
          to: timeoutAt,
          reason,
        },
      });
      await notifyGates(tx, [gate.id]);
      return { gate: extended! };
    },
  );
  if ("closed" in result) {
    // A gate found overdue was timed out by this very request, and that change committed.
    if ("timedOut" in result && result.timedOut) gatesResolved(ctx, result.timedOut);
    throw standingAnswer(result.closed);
  }
  ctx.gates.wake(result.gate.id);
  const approvals = await approvalsOf(ctx.db, [result.gate.id]);
  return toGateItem(result.gate, approvals.get(result.gate.id) ?? []);
}
