import { and, count, eq, fleetMemories, type SQL, sql } from "@fleet/db";
import type { ServiceContext } from "../shared/context.ts";
import { keysetPage } from "../shared/keyset.ts";
import { filteredBinding } from "../shared/tags.ts";
import { requireFleet } from "../shared/tenancy.ts";

/** The search expression; it must match the GIN index `fleet_memories_search_idx` exactly. */
export const searchable = sql`to_tsvector('simple', ${fleetMemories.key} || ' ' || ${fleetMemories.content})`;

/** Recent, by category, or by text search: each pages by cursor over creation order, newest first. */
export async function listMemories(
  ctx: ServiceContext,
  tenantId: string,
  input: {
    workspace_id: string;
    fleet_id: string;
    starting_after?: string;
    limit: number;
    category?: string;
    query?: string;
  },
) {
  await requireFleet(ctx.db, tenantId, input.workspace_id, input.fleet_id);
  const filters: SQL[] = [eq(fleetMemories.fleetId, input.fleet_id)];
  if (input.category !== undefined) filters.push(eq(fleetMemories.category, input.category));
  if (input.query !== undefined)
    filters.push(sql`${searchable} @@ plainto_tsquery('simple', ${input.query})`);
  const page = await keysetPage({
    bind: filteredBinding("memories", [input.fleet_id, input.category ?? null, input.query ?? null]),
    sort: fleetMemories.createdAt,
    id: fleetMemories.id,
    descending: true,
    limit: input.limit,
    starting_after: input.starting_after,
    read: ({ after, order, rows }) =>
      ctx.db
        .select()
        .from(fleetMemories)
        .where(and(...filters, after))
        .orderBy(...order)
        .limit(rows),
    keyOf: (row) => ({ value: row.createdAt, id: row.id }),
    count: () =>
      ctx.db
        .select({ n: count() })
        .from(fleetMemories)
        .where(and(...filters)),
  });
  return {
    items: page.items.map((row) => ({
      key: row.key,
      content: row.content,
      category: row.category,
      created_at: row.createdAt,
      updated_at: row.updatedAt,
    })),
    total: page.total,
    next_cursor: page.next_cursor,
  };
}
