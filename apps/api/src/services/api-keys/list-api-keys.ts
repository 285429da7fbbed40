import type { ApiKeySort } from "@fleet/contracts";
import { and, apiKeys, count, eq, isNull } from "@fleet/db";
import type { ServiceContext } from "../shared/context.ts";
import { keysetPage } from "../shared/keyset.ts";
import { toApiKeyItem } from "./api-key-rows.ts";

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
  const field = input.sort.replace(/^-/, "") as keyof typeof sortColumns;
  const page = await keysetPage({
    bind: `api-keys:${input.sort}`,
    sort: sortColumns[field],
    id: apiKeys.id,
    descending: input.sort.startsWith("-"),
    valueType: field === "created_at" ? "number" : "string",
    limit: input.limit,
    starting_after: input.starting_after,
    read: ({ after, order, rows }) =>
      ctx.db
        .select()
        .from(apiKeys)
        .where(and(eq(apiKeys.tenantId, tenantId), isNull(apiKeys.fleetId), after))
        .orderBy(...order)
        .limit(rows),
    keyOf: (row) => ({ value: field === "created_at" ? row.createdAt : row.keyName, id: row.id }),
    count: () =>
      ctx.db
        .select({ n: count() })
        .from(apiKeys)
        .where(and(eq(apiKeys.tenantId, tenantId), isNull(apiKeys.fleetId))),
  });
  return { items: page.items.map(toApiKeyItem), total: page.total, next_cursor: page.next_cursor };
}
