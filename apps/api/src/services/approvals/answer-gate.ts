import { type GateApproval, Problem } from "@fleet/contracts";
import { approvalGates, approvalVotes, eq, type Tx } from "@fleet/db";
import type { TenantPrincipal } from "../../auth/principal.ts";
import { type Actor, recordAudit } from "../shared/audit.ts";
import type { ServiceContext } from "../shared/context.ts";
import { type GateWithWebhookId, gatesResolved } from "../shared/frames.ts";
import { checkAmendedAction } from "./action-schema.ts";
import { answerReason } from "./answer-reason.ts";
import { type DecidedGate, decideGate } from "./decide-gate.ts";
import { type GateRow, resolverOf, standingAnswer } from "./gate-view.ts";
import { settleGrantForGate } from "./grant-gate.ts";
import { lockOpenGate, notApprover, notCounted, ownGate } from "./lock-gate.ts";
import { approvalsOf, countedOf, mayAnswer } from "./votes.ts";

export interface AnswerInput {
  workspace_id: string;
  gate_id: string;
  reason?: string;
  amended_action?: string;
}

type Answered =
  | { decided: DecidedGate; approvals: GateApproval[] }
  | { pending: GateRow; approvals: GateApproval[] }
  | { closed: GateRow; timedOut?: GateWithWebhookId[] };

/**
 * One person's answer to a pending gate. The gate's row is locked (`SELECT … FOR UPDATE`) for the whole
 * answer, so concurrent answers on any instance are taken one at a time: each sees the votes before it,
 * and the gate is decided exactly once. A denial decides `denied`; an approval is counted once per person
 * (`approval_votes`' key), and the rule's M-th counted approval decides `approved`; before that the
 * answer is `pending` with the approvals so far. Only people count: the gate's causer is refused unless
 * the policy allows it, and an approval that could not count (joined after the gate opened, or of an
 * invitation family that already approved) is refused rather than stored (`approvalsOf` says which
 * count). The one-approver default is the first answer winning.
 * A late answer gets the standing answer (an overdue gate is timed out first, as the sweeper would).
 */
export async function answerGate(
  ctx: ServiceContext,
  principal: TenantPrincipal,
  actor: Actor,
  outcome: "approved" | "denied",
  input: AnswerInput,
) {
  const now = ctx.now();
  const by = resolverOf(principal);
  const result = await ctx.db.transaction(async (tx): Promise<Answered> => {
    const locked = await lockOpenGate(tx, principal.tenantId, input, now);
    if ("closed" in locked) return locked;
    const { gate } = locked;
    if (!mayAnswer(gate, principal, now)) throw notApprover(gate);
    if (outcome === "approved" && gate.causedBy === principal.userId && !gate.allowSelfApproval) {
      throw ownGate(gate);
    }
    if (outcome === "approved" && input.amended_action !== undefined && gate.requiredApprovals > 1) {
      throw new Problem("UZ-APPROVAL-002", {
        detail: `Rule "${gate.ruleName}" takes ${gate.requiredApprovals} approvals; amended_action needs a one-approver rule, since the others approved the action as proposed.`,
      });
    }
    // An edit that does not fit the tool is refused now, not when the runner would run it.
    if (outcome === "approved" && input.amended_action !== undefined) {
      checkAmendedAction(gate, input.amended_action);
    }
    // One text for the vote, the gate and the audit row.
    const reason = await answerReason(tx, ctx.vault, gate, input.reason);
    const vote = { gateId: gate.id, voterId: principal.userId, principal: by, outcome, reason, at: now };
    if (outcome === "denied") {
      // Any denial decides, also one by a person who approved earlier.
      await tx
        .insert(approvalVotes)
        .values(vote)
        .onConflictDoUpdate({
          target: [approvalVotes.gateId, approvalVotes.voterId],
          set: { outcome, principal: by, reason: vote.reason, at: now },
        });
      return {
        decided: await decide(tx, gate, actor, outcome, { ...input, reason }, by, now),
        approvals: [],
      };
    }
    const [counted] = await tx.insert(approvalVotes).values(vote).onConflictDoNothing().returning();
    const approvals = (await approvalsOf(tx, [gate.id])).get(gate.id) ?? [];
    if (counted === undefined) {
      throw new Problem("UZ-APPROVAL-008", {
        detail: `You already approved this gate; it needs ${gate.requiredApprovals} approvals from different people and has ${countedOf(approvals)}.`,
        gate_id: gate.id,
        current_state: "pending",
        approvals,
      });
    }
    // Thrown, so the transaction and the vote it wrote roll back: an approval that cannot count is not kept.
    if (!approvals.some((a) => a.user_id === principal.userId && a.counted)) {
      throw await notCounted(tx, gate, principal.userId);
    }
    if (countedOf(approvals) >= gate.requiredApprovals) {
      return { decided: await decide(tx, gate, actor, outcome, { ...input, reason }, by, now), approvals };
    }
    const [pending] = await tx
      .update(approvalGates)
      .set({ updatedAt: now })
      .where(eq(approvalGates.id, gate.id))
      .returning();
    await recordAudit(tx, {
      actor,
      at: now,
      tenantId: gate.tenantId,
      workspaceId: gate.workspaceId,
      action: "approval.approve",
      target: `approval_gate:${gate.id}`,
      details: {
        fleet_id: gate.fleetId,
        gate_kind: gate.gateKind,
        approvals: countedOf(approvals),
        required_approvals: gate.requiredApprovals,
        decided: false,
        reason,
      },
    });
    return { pending: pending!, approvals };
  });
  if ("closed" in result) {
    // A gate found overdue was timed out by this very request, and that change committed.
    if ("timedOut" in result && result.timedOut) gatesResolved(ctx, result.timedOut);
    throw standingAnswer(result.closed);
  }
  const row = "decided" in result ? result.decided : result.pending;
  if ("decided" in result) {
    ctx.gates.wake(row.id);
    gatesResolved(ctx, [{ id: row.id, webhookId: result.decided.webhookId }]);
  }
  return {
    gate_id: row.id,
    action_id: row.actionId,
    outcome: row.status as "approved" | "denied" | "pending",
    resolved_at: row.resolvedAt,
    resolved_by: row.resolvedBy,
    required_approvals: row.requiredApprovals,
    approvals: result.approvals,
  };
}

/** Decides the locked, pending gate, audits it, and decides the grant an integration grant's gate asks for. */
async function decide(
  tx: Tx,
  gate: GateRow,
  actor: Actor,
  outcome: "approved" | "denied",
  input: Omit<AnswerInput, "reason"> & { reason: string | null },
  by: string,
  now: number,
): Promise<DecidedGate> {
  // The gate's row is locked and pending: this write decides it.
  const won = (await decideGate(
    tx,
    gate.id,
    {
      outcome,
      reason: input.reason,
      amendedAction: input.amended_action ?? null,
      resolvedBy: by,
    },
    now,
  ))!;
  await recordAudit(tx, {
    actor,
    at: now,
    tenantId: gate.tenantId,
    workspaceId: gate.workspaceId,
    action: outcome === "approved" ? "approval.approve" : "approval.deny",
    target: `approval_gate:${gate.id}`,
    details: {
      fleet_id: gate.fleetId,
      gate_kind: gate.gateKind,
      amended: won.amendedAction !== null,
      required_approvals: gate.requiredApprovals,
      decided: true,
      reason: input.reason,
    },
  });
  // An integration grant's gate decides its grant in the same transaction.
  await settleGrantForGate(tx, won, now);
  return won;
}
