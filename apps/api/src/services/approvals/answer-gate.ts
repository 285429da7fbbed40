import { and, approvalGates, eq, gt } from "@fleet/db";
import type { TenantPrincipal } from "../../auth/principal.ts";
import { type Actor, recordAudit } from "../audit/record.ts";
import type { ServiceContext } from "../context.ts";
import { settleGrantForGate } from "../integration-grants/gate.ts";
import { requireWorkspace } from "../workspaces/access.ts";
import { type GateRow, notifyGates, resolverOf, standingAnswer } from "./gate-view.ts";
import { gateNotFound } from "./inbox.ts";
import { timeOutGates } from "./sweep.ts";

export interface AnswerInput {
  workspace_id: string;
  gate_id: string;
  reason?: string;
  amended_action?: string;
}

/**
 * Answers a pending gate. One conditional UPDATE (`status = 'pending'` and before the deadline) decides:
 * concurrent answers on any instance queue on the row's lock and re-check it, so exactly one writes and
 * every other is refused with the answer that stands. An answer after the deadline times the gate out
 * itself (if the sweeper has not yet) and is refused with that.
 */
export async function answerGate(
  ctx: ServiceContext,
  principal: TenantPrincipal,
  actor: Actor,
  outcome: "approved" | "denied",
  input: AnswerInput,
) {
  const now = ctx.now();
  const resolvedBy = resolverOf(principal);
  const result = await ctx.db.transaction(async (tx): Promise<{ won: GateRow } | { lost: GateRow }> => {
    const [won] = await tx
      .update(approvalGates)
      .set({
        status: outcome,
        reason: input.reason ?? null,
        amendedAction: outcome === "approved" ? (input.amended_action ?? null) : null,
        resolvedBy,
        resolvedAt: now,
        updatedAt: now,
      })
      .where(
        and(
          eq(approvalGates.id, input.gate_id),
          eq(approvalGates.workspaceId, input.workspace_id),
          eq(approvalGates.tenantId, principal.tenantId),
          eq(approvalGates.status, "pending"),
          gt(approvalGates.timeoutAt, now),
        ),
      )
      .returning();
    if (won !== undefined) {
      await recordAudit(tx, {
        actor,
        at: now,
        tenantId: won.tenantId,
        workspaceId: won.workspaceId,
        action: outcome === "approved" ? "approval.approve" : "approval.deny",
        target: `approval_gate:${won.id}`,
        details: { fleet_id: won.fleetId, gate_kind: won.gateKind, amended: won.amendedAction !== null },
      });
      await settleGrantForGate(tx, won, now);
      await notifyGates(tx, [won.id]);
      return { won };
    }
    const scope = and(
      eq(approvalGates.id, input.gate_id),
      eq(approvalGates.workspaceId, input.workspace_id),
      eq(approvalGates.tenantId, principal.tenantId),
    );
    let [row] = await tx.select().from(approvalGates).where(scope);
    if (row === undefined) {
      await requireWorkspace(tx, principal.tenantId, input.workspace_id);
      throw gateNotFound(input.gate_id);
    }
    if (row.status === "pending") {
      // Past its deadline: the answer came too late. Time it out now, as the sweeper would.
      await timeOutGates(tx, now, row.id);
      [row] = await tx.select().from(approvalGates).where(scope);
    }
    return { lost: row! };
  });
  if ("lost" in result) throw standingAnswer(result.lost);
  ctx.gates.wake(result.won.id);
  return {
    gate_id: result.won.id,
    action_id: result.won.actionId,
    outcome,
    resolved_at: now,
    resolved_by: resolvedBy,
  };
}
