import { and, count, desc, eq, fleetMemories, type SQL, sql } from "@fleet/db";
import type { ServiceContext } from "../context.ts";
import { decodeCursor, encodeCursor } from "../cursor.ts";
import { requireFleet } from "../fleets/access.ts";
import { filteredBinding } from "../tags.ts";

/** The search expression; it must match the GIN index `fleet_memories_search_idx` exactly. */
const searchable = sql`to_tsvector('simple', ${fleetMemories.key} || ' ' || ${fleetMemories.content})`;

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
  const bind = filteredBinding("memories", [input.fleet_id, input.category ?? null, input.query ?? null]);
  const filters: SQL[] = [eq(fleetMemories.fleetId, input.fleet_id)];
  if (input.category !== undefined) filters.push(eq(fleetMemories.category, input.category));
  if (input.query !== undefined)
    filters.push(sql`${searchable} @@ plainto_tsquery('simple', ${input.query})`);
  const paged = [...filters];
  if (input.starting_after !== undefined) {
    const after = decodeCursor(input.starting_after, bind);
    paged.push(sql`(${fleetMemories.createdAt}, ${fleetMemories.id}) < (${after.value}, ${after.id}::uuid)`);
  }
  const [rows, [total]] = await Promise.all([
    ctx.db
      .select()
      .from(fleetMemories)
      .where(and(...paged))
      .orderBy(desc(fleetMemories.createdAt), desc(fleetMemories.id))
      .limit(input.limit + 1),
    ctx.db
      .select({ n: count() })
      .from(fleetMemories)
      .where(and(...filters)),
  ]);
  const items = rows.slice(0, input.limit);
  const last = items.at(-1);
  return {
    items: items.map((row) => ({
      key: row.key,
      content: row.content,
      category: row.category,
      created_at: row.createdAt,
      updated_at: row.updatedAt,
    })),
    total: total?.n ?? 0,
    next_cursor:
      rows.length > input.limit && last ? encodeCursor({ bind, value: last.createdAt, id: last.id }) : null,
  };
}
