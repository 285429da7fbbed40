import { and, count, eq, type SQL, workspaces } from "@fleet/db";
import type { ServiceContext } from "../shared/context.ts";
import { keysetPage } from "../shared/keyset.ts";

/** The tenant's workspaces, newest first, keyset-paged. */
export async function listWorkspaces(
  ctx: ServiceContext,
  tenantId: string,
  input: { name?: string; starting_after?: string; limit: number },
) {
  const scope: SQL[] = [eq(workspaces.tenantId, tenantId)];
  if (input.name !== undefined) scope.push(eq(workspaces.name, input.name));
  const page = await keysetPage({
    bind: "workspaces",
    sort: workspaces.createdAt,
    id: workspaces.id,
    descending: true,
    limit: input.limit,
    starting_after: input.starting_after,
    read: ({ after, order, rows }) =>
      ctx.db
        .select()
        .from(workspaces)
        .where(and(...scope, after))
        .orderBy(...order)
        .limit(rows),
    keyOf: (row) => ({ value: row.createdAt, id: row.id }),
    count: () =>
      ctx.db
        .select({ n: count() })
        .from(workspaces)
        .where(and(...scope)),
  });
  return {
    items: page.items.map((row) => ({ id: row.id, name: row.name, created_at: row.createdAt })),
    tenant_id: tenantId,
    total: page.total,
    next_cursor: page.next_cursor,
  };
}
