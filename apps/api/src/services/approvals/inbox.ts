import { type GateStatus, Problem } from "@fleet/contracts";
import { and, approvalGates, asc, type Database, eq, fleets, sql } from "@fleet/db";
import { decodeCursor, encodeCursor } from "../cursor.ts";
import { requireWorkspace } from "../workspaces/access.ts";
import { toGateItem } from "./gate-view.ts";

export interface InboxQuery {
  workspace_id: string;
  status: GateStatus;
  limit: number;
  fleet_id?: string;
  gate_kind?: string;
  cursor?: string;
  starting_after?: string;
}

const withFleetName = { gate: approvalGates, fleetName: fleets.name };

/**
 * Oldest first, keyset-paged over (requested_at, id) on the inbox index: a gate opened between two page
 * reads sorts after the rows already served (or, opened in the same millisecond with a smaller id, is
 * served on a later page only if it sorts after the cursor), and nothing already pending is skipped.
 */
export async function listApprovals(db: Database, tenantId: string, input: InboxQuery) {
  if (input.cursor !== undefined && input.starting_after !== undefined) {
    throw new Problem("UZ-REQ-001", { detail: "Send the cursor as cursor or as starting_after, not both." });
  }
  await requireWorkspace(db, tenantId, input.workspace_id);
  const bind = `approvals:${input.workspace_id}:${input.status}:${input.fleet_id ?? ""}:${input.gate_kind ?? ""}`;
  const cursor = input.cursor ?? input.starting_after;
  const after = cursor === undefined ? null : decodeCursor(cursor, bind);
  const conditions = [
    eq(approvalGates.workspaceId, input.workspace_id),
    eq(approvalGates.status, input.status),
    input.fleet_id === undefined ? undefined : eq(approvalGates.fleetId, input.fleet_id),
    input.gate_kind === undefined ? undefined : eq(approvalGates.gateKind, input.gate_kind),
    after === null
      ? undefined
      : sql`(${approvalGates.requestedAt}, ${approvalGates.id}) > (${after.value}, ${after.id}::uuid)`,
  ];
  const rows = await db
    .select(withFleetName)
    .from(approvalGates)
    .leftJoin(fleets, eq(fleets.id, approvalGates.fleetId))
    .where(and(...conditions))
    .orderBy(asc(approvalGates.requestedAt), asc(approvalGates.id))
    .limit(input.limit + 1);
  const items = rows.slice(0, input.limit);
  const last = items.at(-1)?.gate;
  return {
    items: items.map((row) => toGateItem(row.gate, row.fleetName)),
    next_cursor:
      rows.length > input.limit && last ? encodeCursor({ bind, value: last.requestedAt, id: last.id }) : null,
  };
}

export async function getApproval(db: Database, tenantId: string, workspaceId: string, gateId: string) {
  await requireWorkspace(db, tenantId, workspaceId);
  const [row] = await db
    .select(withFleetName)
    .from(approvalGates)
    .leftJoin(fleets, eq(fleets.id, approvalGates.fleetId))
    .where(and(eq(approvalGates.id, gateId), eq(approvalGates.workspaceId, workspaceId)));
  if (row === undefined) throw gateNotFound(gateId);
  return toGateItem(row.gate, row.fleetName);
}

export function gateNotFound(gateId: string): Problem {
  return new Problem("UZ-APPROVAL-001", { detail: `No approval gate ${gateId} in this workspace.` });
}
