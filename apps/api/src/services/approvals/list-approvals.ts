import { type GateStatus, Problem } from "@fleet/contracts";
import { and, approvalGates, eq, fleets } from "@fleet/db";
import type { ServiceContext } from "../shared/context.ts";
import { encodeCursor, keysetPage } from "../shared/keyset.ts";
import { requireWorkspace } from "../shared/tenancy.ts";
import { toGateItem, withFleetName } from "./gate-view.ts";
import { approvalsOf } from "./votes.ts";

export interface InboxQuery {
  workspace_id: string;
  status: GateStatus;
  limit: number;
  fleet_id?: string;
  gate_kind?: string;
  cursor?: string;
  starting_after?: string;
}

/**
 * The most an inbox page's items may weigh as JSON. A gate can carry 64 KiB of evidence and 16 KiB twice
 * over in actions, so 200 of them would be ~19 MB: a page stops early at this budget (always serving at
 * least one gate) and its cursor continues after the last one served. The same 1 MiB the library list
 * allows a page.
 */
export const INBOX_PAGE_BYTES = 1024 * 1024;

/**
 * Oldest first, keyset-paged over (requested_at, id) on the inbox index: a gate opened between two page
 * reads sorts after the rows already served (or, opened in the same millisecond with a smaller id, is
 * served on a later page only if it sorts after the cursor), and nothing already pending is skipped.
 */
export async function listApprovals(ctx: ServiceContext, tenantId: string, input: InboxQuery) {
  if (input.cursor !== undefined && input.starting_after !== undefined) {
    throw new Problem("UZ-REQ-001", { detail: "Send the cursor as cursor or as starting_after, not both." });
  }
  await requireWorkspace(ctx.db, tenantId, input.workspace_id);
  const bind = `approvals:${input.workspace_id}:${input.status}:${input.fleet_id ?? ""}:${input.gate_kind ?? ""}`;
  const page = await keysetPage({
    bind,
    sort: approvalGates.requestedAt,
    id: approvalGates.id,
    descending: false,
    limit: input.limit,
    starting_after: input.cursor ?? input.starting_after,
    read: ({ after, order, rows }) =>
      ctx.db
        .select(withFleetName)
        .from(approvalGates)
        .leftJoin(fleets, eq(fleets.id, approvalGates.fleetId))
        .where(
          and(
            eq(approvalGates.workspaceId, input.workspace_id),
            eq(approvalGates.status, input.status),
            input.fleet_id === undefined ? undefined : eq(approvalGates.fleetId, input.fleet_id),
            input.gate_kind === undefined ? undefined : eq(approvalGates.gateKind, input.gate_kind),
            after,
          ),
        )
        .orderBy(...order)
        .limit(rows),
    keyOf: (row) => ({ value: row.gate.requestedAt, id: row.gate.id }),
  });
  const approvals = await approvalsOf(
    ctx.db,
    page.items.map((row) => row.gate.id),
  );
  const items = page.items.map((row) =>
    toGateItem(row.gate, approvals.get(row.gate.id) ?? [], row.fleetName),
  );
  let bytes = 0;
  for (const [n, item] of items.entries()) {
    bytes += Buffer.byteLength(JSON.stringify(item)) + 1;
    if (n === 0 || bytes <= INBOX_PAGE_BYTES) continue;
    const last = items[n - 1]!;
    return {
      items: items.slice(0, n),
      next_cursor: encodeCursor({ bind, value: last.requested_at, id: last.gate_id }),
    };
  }
  return { ...page, items };
}
