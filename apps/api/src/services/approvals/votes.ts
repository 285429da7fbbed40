import type { GateApproval } from "@fleet/contracts";
import {
  and,
  approvalGates,
  approvalVotes,
  asc,
  type Database,
  eq,
  inArray,
  memberships,
  type Tx,
} from "@fleet/db";
import type { TenantPrincipal } from "../../auth/principal.ts";
import type { GateRow } from "./gate-view.ts";

/**
 * Who approved each of these gates so far, oldest first, each marked whether it counts toward the
 * quorum now (docs/decisions/approvals.md, "Quorum means people"): the person is still a member, was one
 * when the gate opened (a later membership, a re-invitation included, does not count), is not the one
 * who caused the gate unless the policy allowed it, and is the first of their invitation family to
 * approve. A vote that stops counting stays in the list, marked.
 */
export async function approvalsOf(
  db: Database | Tx,
  gateIds: readonly string[],
): Promise<Map<string, GateApproval[]>> {
  const found = new Map<string, GateApproval[]>();
  if (gateIds.length === 0) return found;
  const rows = await db
    .select({
      gateId: approvalVotes.gateId,
      voterId: approvalVotes.voterId,
      principal: approvalVotes.principal,
      at: approvalVotes.at,
      requestedAt: approvalGates.requestedAt,
      causedBy: approvalGates.causedBy,
      allowSelf: approvalGates.allowSelfApproval,
      joinedAt: memberships.createdAt,
      familyId: memberships.familyId,
    })
    .from(approvalVotes)
    .innerJoin(approvalGates, eq(approvalGates.id, approvalVotes.gateId))
    .leftJoin(
      memberships,
      and(eq(memberships.tenantId, approvalGates.tenantId), eq(memberships.userId, approvalVotes.voterId)),
    )
    .where(and(inArray(approvalVotes.gateId, [...gateIds]), eq(approvalVotes.outcome, "approved")))
    .orderBy(asc(approvalVotes.at), asc(approvalVotes.voterId));
  const families = new Map<string, Set<string>>();
  for (const row of rows) {
    const seen = families.get(row.gateId) ?? new Set<string>();
    families.set(row.gateId, seen);
    const family = row.familyId ?? row.voterId;
    const counted =
      row.joinedAt !== null &&
      row.joinedAt <= row.requestedAt &&
      (row.allowSelf || row.causedBy !== row.voterId) &&
      !seen.has(family);
    if (counted) seen.add(family);
    const list = found.get(row.gateId) ?? [];
    list.push({ by: row.principal, user_id: row.voterId, at: row.at, counted });
    found.set(row.gateId, list);
  }
  return found;
}

/** How many of these approvals count toward the quorum. */
export function countedOf(approvals: readonly GateApproval[]): number {
  return approvals.filter((approval) => approval.counted).length;
}

/**
 * Whether the person may answer the gate: anyone holding the scope when its rule named no approvers,
 * else one of them, or, once the gate's escalation time has passed, one of its escalation approvers. An
 * API key answers as the person who created it. The escalation time decides, not the sweeper's cadence.
 */
export function mayAnswer(gate: GateRow, principal: TenantPrincipal, now: number): boolean {
  if (gate.approvers === null) return true;
  if (gate.approvers.includes(principal.userId)) return true;
  const escalated = gate.escalatedAt !== null || (gate.escalateAt !== null && gate.escalateAt <= now);
  return escalated && (gate.escalationApprovers ?? []).includes(principal.userId);
}
