import type { FleetStatus } from "@fleet/contracts";
import { and, count, eq, fleets, inArray, type SQL, sql } from "@fleet/db";
import type { ServiceContext } from "../shared/context.ts";
import { keysetPage } from "../shared/keyset.ts";
import { filteredBinding } from "../shared/tags.ts";
import { requireWorkspace } from "../shared/tenancy.ts";
import { toFleetItem } from "./fleet-view.ts";

/** Newest first, keyset-paged over (created_at, id). */
export async function listFleets(
  ctx: ServiceContext,
  tenantId: string,
  input: {
    workspace_id: string;
    starting_after?: string;
    limit: number;
    status?: FleetStatus[];
    name?: string;
  },
) {
  await requireWorkspace(ctx.db, tenantId, input.workspace_id);
  const conditions: SQL[] = [eq(fleets.workspaceId, input.workspace_id)];
  if (input.status !== undefined) conditions.push(inArray(fleets.status, input.status));
  if (input.name !== undefined) {
    const pattern = `%${input.name.replace(/[\\%_]/g, "\\$&")}%`;
    conditions.push(sql`${fleets.name} ilike ${pattern}`);
  }
  const scope = and(...conditions) as SQL;
  const filtered = input.status !== undefined || input.name !== undefined;
  const page = await keysetPage({
    // Unfiltered lists keep the binding they always had, so cursors already issued stay good.
    bind: filtered
      ? filteredBinding(`fleets:${input.workspace_id}`, [input.status?.join(",") ?? null, input.name ?? null])
      : `fleets:${input.workspace_id}`,
    sort: fleets.createdAt,
    id: fleets.id,
    descending: true,
    limit: input.limit,
    starting_after: input.starting_after,
    read: ({ after, order, rows }) =>
      ctx.db
        .select()
        .from(fleets)
        .where(and(scope, after))
        .orderBy(...order)
        .limit(rows),
    keyOf: (row) => ({ value: row.createdAt, id: row.id }),
    count: () => ctx.db.select({ n: count() }).from(fleets).where(scope),
  });
  return { items: page.items.map(toFleetItem), total: page.total, next_cursor: page.next_cursor };
}
