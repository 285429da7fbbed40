import type { ApiKeySort } from "@fleet/contracts";
import { and, apiKeys, asc, count, desc, eq, type SQL, sql } from "@fleet/db";
import type { ServiceContext } from "../context.ts";
import { decodeCursor, encodeCursor } from "../cursor.ts";
import { toApiKeyItem } from "./api-key-item.ts";

const sortColumns = {
  created_at: apiKeys.createdAt,
  key_name: apiKeys.keyName,
} as const;

/** One page of the tenant's keys in the requested order, keyset-paged over (sort value, id). */
export async function listApiKeys(
  ctx: ServiceContext,
  tenantId: string,
  input: { starting_after?: string; limit: number; sort: ApiKeySort },
) {
  const descending = input.sort.startsWith("-");
  const field = input.sort.replace(/^-/, "") as keyof typeof sortColumns;
  const column = sortColumns[field];
  const bind = `api-keys:${input.sort}`;
  const conditions: SQL[] = [eq(apiKeys.tenantId, tenantId)];
  if (input.starting_after !== undefined) {
    const after = decodeCursor(input.starting_after, bind, field === "created_at" ? "number" : "string");
    conditions.push(
      descending
        ? sql`(${column}, ${apiKeys.id}) < (${after.value}, ${after.id}::uuid)`
        : sql`(${column}, ${apiKeys.id}) > (${after.value}, ${after.id}::uuid)`,
    );
  }
  const order = descending ? [desc(column), desc(apiKeys.id)] : [asc(column), asc(apiKeys.id)];
  const [rows, [total]] = await Promise.all([
    ctx.db
      .select()
      .from(apiKeys)
      .where(and(...conditions))
      .orderBy(...order)
      .limit(input.limit + 1),
    ctx.db.select({ n: count() }).from(apiKeys).where(eq(apiKeys.tenantId, tenantId)),
  ]);
  const hasMore = rows.length > input.limit;
  const items = rows.slice(0, input.limit);
  const last = items.at(-1);
  return {
    items: items.map(toApiKeyItem),
    total: total?.n ?? 0,
    next_cursor:
      hasMore && last
        ? encodeCursor({ bind, value: field === "created_at" ? last.createdAt : last.keyName, id: last.id })
        : null,
  };
}
