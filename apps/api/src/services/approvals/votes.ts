import type { GateApproval } from "@fleet/contracts";
import { and, approvalVotes, asc, type Database, eq, inArray, type Tx } from "@fleet/db";
import type { TenantPrincipal } from "../../auth/principal.ts";
import type { GateRow } from "./gate-view.ts";

/** Who approved each of these gates so far, oldest first. */
export async function approvalsOf(
  db: Database | Tx,
  gateIds: readonly string[],
): Promise<Map<string, GateApproval[]>> {
  const found = new Map<string, GateApproval[]>();
  if (gateIds.length === 0) return found;
  const rows = await db
    .select()
    .from(approvalVotes)
    .where(and(inArray(approvalVotes.gateId, [...gateIds]), eq(approvalVotes.outcome, "approved")))
    .orderBy(asc(approvalVotes.at), asc(approvalVotes.voterId));
  for (const row of rows) {
    const list = found.get(row.gateId) ?? [];
    list.push({ by: row.principal, user_id: row.voterId, at: row.at });
    found.set(row.gateId, list);
  }
  return found;
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
