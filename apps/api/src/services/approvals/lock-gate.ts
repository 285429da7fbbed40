import { Problem } from "@fleet/contracts";
import { and, approvalGates, eq, memberships, type Tx } from "@fleet/db";
import type { GateWithWebhookId } from "../shared/frames.ts";
import { requireWorkspace } from "../shared/tenancy.ts";
import type { GateRow } from "./gate-view.ts";
import { gateNotFound } from "./gate-view.ts";
import { timeOutGates } from "./sweep.ts";

/**
 * Locks the workspace's gate for a person's act on it (an answer, an extension): `{ gate }` while it is
 * pending and before its deadline, else `{ closed }` with the row that stands. An overdue gate is timed
 * out here, as the sweeper would (`timedOut` says so: the caller publishes it once committed), so the
 * caller must commit before refusing with the standing answer.
 */
export async function lockOpenGate(
  tx: Tx,
  tenantId: string,
  input: { workspace_id: string; gate_id: string },
  now: number,
): Promise<{ gate: GateRow } | { closed: GateRow; timedOut?: GateWithWebhookId[] }> {
  const scope = and(
    eq(approvalGates.id, input.gate_id),
    eq(approvalGates.workspaceId, input.workspace_id),
    eq(approvalGates.tenantId, tenantId),
  );
  // A terminal row never changes, so a late answer is refused without queueing on the row's lock behind
  // the answers still being counted.
  const [seen] = await tx.select().from(approvalGates).where(scope);
  if (seen === undefined) {
    await requireWorkspace(tx, tenantId, input.workspace_id);
    throw gateNotFound(input.gate_id);
  }
  if (seen.status !== "pending") return { closed: seen };
  // Conditional on `pending`: a waiter granted the lock after a decision committed re-checks the row and
  // takes no lock, so the losers of a race do not file through the lock one at a time.
  const [gate] = await tx
    .select()
    .from(approvalGates)
    .where(and(scope, eq(approvalGates.status, "pending")))
    .for("update");
  if (gate === undefined) {
    const [row] = await tx.select().from(approvalGates).where(scope);
    return { closed: row! };
  }
  if (gate.timeoutAt <= now) {
    const timedOut = await timeOutGates(tx, now, gate.id);
    const [row] = await tx.select().from(approvalGates).where(scope);
    return { closed: row!, timedOut };
  }
  return { gate };
}

/** 403: the gate's rule names who may answer it, and the caller is not among them. */
export function notApprover(gate: GateRow): Problem {
  return new Problem("UZ-APPROVAL-004", {
    detail: `The approval policy's rule "${gate.ruleName}" names who may answer this gate, and you are not among them.`,
    gate_id: gate.id,
    rule: gate.ruleName,
  });
}

/** 403: the person who caused the gate approving it, which the workspace's policy does not allow. */
export function ownGate(gate: GateRow): Problem {
  return new Problem("UZ-APPROVAL-010", {
    detail:
      "You caused this gate (you sent the message or requested the grant); the approval policy has someone else approve it.",
    gate_id: gate.id,
    rule: gate.ruleName,
  });
}

/**
 * 403: the person's approval could not count toward the gate's quorum: they joined the tenant after the
 * gate opened, or someone of their invitation family already approved it.
 */
export async function notCounted(tx: Tx, gate: GateRow, userId: string): Promise<Problem> {
  const [member] = await tx
    .select({ joinedAt: memberships.createdAt })
    .from(memberships)
    .where(and(eq(memberships.tenantId, gate.tenantId), eq(memberships.userId, userId)));
  const late = member === undefined || member.joinedAt > gate.requestedAt;
  return new Problem("UZ-APPROVAL-011", {
    detail: late
      ? "You joined the tenant after this gate opened; only people who were members when it opened count toward its quorum."
      : "Someone of your invitation family (you, who invited you, or whom they invited) already approved this gate; a family counts once.",
    gate_id: gate.id,
    rule: gate.ruleName,
  });
}
