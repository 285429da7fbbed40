import { Problem } from "@fleet/contracts";
import { and, count, eq, type SQL, workspaces } from "@fleet/db";
import { newId } from "../../runtime/ids.ts";
import type { ServiceContext } from "../shared/context.ts";
import { uniqueViolation } from "../shared/errors.ts";
import { keysetPage } from "../shared/keyset.ts";

export async function createWorkspace(ctx: ServiceContext, tenantId: string, name: string) {
  const now = ctx.now();
  const id = newId(now);
  try {
    await ctx.db.insert(workspaces).values({ id, tenantId, name, createdAt: now });
  } catch (error) {
    if (uniqueViolation(error, "workspaces_tenant_name_key")) {
      throw new Problem("UZ-WORKSPACE-001", {
        detail: `The tenant already has a workspace named "${name}".`,
        current_state: "name_exists",
      });
    }
    throw error;
  }
  return { workspace_id: id, name, tenant_id: tenantId };
}

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
