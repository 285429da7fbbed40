import { and, apiKeys, count, eq, fleets, inArray } from "@fleet/db";
import type { ServiceContext } from "../shared/context.ts";
import { keysetPage } from "../shared/keyset.ts";
import { requireWorkspace } from "../shared/tenancy.ts";
import { toFleetKeyItem } from "./fleet-key-rows.ts";

/** One page of the workspace's fleet keys (or one fleet's), newest first, keyset-paged over (created_at, id). */
export async function listFleetKeys(
  ctx: ServiceContext,
  tenantId: string,
  input: { workspace_id: string; fleet_id?: string; starting_after?: string; limit: number },
) {
  await requireWorkspace(ctx.db, tenantId, input.workspace_id);
  const inWorkspace = ctx.db
    .select({ id: fleets.id })
    .from(fleets)
    .where(and(eq(fleets.workspaceId, input.workspace_id), eq(fleets.tenantId, tenantId)));
  const where = and(
    eq(apiKeys.tenantId, tenantId),
    inArray(apiKeys.fleetId, inWorkspace),
    input.fleet_id === undefined ? undefined : eq(apiKeys.fleetId, input.fleet_id),
  );
  const page = await keysetPage({
    bind: `fleet-keys:${input.workspace_id}:${input.fleet_id ?? ""}`,
    sort: apiKeys.createdAt,
    id: apiKeys.id,
    descending: true,
    valueType: "number",
    limit: input.limit,
    starting_after: input.starting_after,
    read: ({ after, order, rows }) =>
      ctx.db
        .select()
        .from(apiKeys)
        .where(and(where, after))
        .orderBy(...order)
        .limit(rows),
    keyOf: (row) => ({ value: row.createdAt, id: row.id }),
    count: () => ctx.db.select({ n: count() }).from(apiKeys).where(where),
  });
  return { items: page.items.map(toFleetKeyItem), total: page.total, next_cursor: page.next_cursor };
}
