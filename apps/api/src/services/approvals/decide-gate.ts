import { and, approvalGates, eq, gt, type Tx } from "@fleet/db";
import { type GateRow, notifyGates } from "./gate-view.ts";
import { gateWebhookEvent } from "./gate-webhooks.ts";

/** A gate this write decided, with the id of its `gate.decided` event (the frame's `webhook_id`). */
export type DecidedGate = GateRow & { webhookId: string };

export interface Decision {
  outcome: "approved" | "denied";
  reason: string | null;
  /** What an approver approved in place of the proposed action; null when approved as proposed. */
  amendedAction?: string | null;
  /** The principal that decided: `user:<id>`, `api_key:<id>`, or a system resolver. */
  resolvedBy: string;
}

/**
 * The one write that decides a gate, whoever decides it (an inbox answer, a grant's webhook, a revoke):
 * a conditional update that only a pending gate passes (and the database refuses any change to a
 * terminal row), then a notice to the runners waiting on it, delivered at commit, and its `gate.decided`
 * webhook event in the outbox. With `beforeDeadline`
 * a gate past its deadline is left to the sweeper, which times it out. Answers the decided row, or
 * undefined when the gate was not pending (someone else decided it first).
 */
export async function decideGate(
  tx: Tx,
  gateId: string,
  decision: Decision,
  now: number,
  { beforeDeadline = false }: { beforeDeadline?: boolean } = {},
): Promise<DecidedGate | undefined> {
  const pending = eq(approvalGates.status, "pending");
  const [decided] = await tx
    .update(approvalGates)
    .set({
      status: decision.outcome,
      reason: decision.reason,
      amendedAction: decision.outcome === "approved" ? (decision.amendedAction ?? null) : null,
      resolvedBy: decision.resolvedBy,
      resolvedAt: now,
      updatedAt: now,
    })
    .where(
      and(
        eq(approvalGates.id, gateId),
        pending,
        beforeDeadline ? gt(approvalGates.timeoutAt, now) : undefined,
      ),
    )
    .returning();
  if (decided === undefined) return undefined;
  await notifyGates(tx, [decided.id]);
  const event = await gateWebhookEvent(tx, decided, "gate.decided", now);
  return { ...decided, webhookId: event.id };
}
