import { Problem } from "@fleet/contracts";
import { and, count, desc, eq, type SQL, sql, workspaces } from "@fleet/db";
import { newId } from "../../runtime/ids.ts";
import { type ServiceContext, uniqueViolation } from "../context.ts";
import { decodeCursor, encodeCursor } from "../cursor.ts";

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
  const bind = "workspaces";
  const scope: SQL[] = [eq(workspaces.tenantId, tenantId)];
  if (input.name !== undefined) scope.push(eq(workspaces.name, input.name));
  const conditions = [...scope];
  if (input.starting_after !== undefined) {
    const after = decodeCursor(input.starting_after, bind);
    conditions.push(sql`(${workspaces.createdAt}, ${workspaces.id}) < (${after.value}, ${after.id}::uuid)`);
  }
  const [rows, [total]] = await Promise.all([
    ctx.db
      .select()
      .from(workspaces)
      .where(and(...conditions))
      .orderBy(desc(workspaces.createdAt), desc(workspaces.id))
      .limit(input.limit + 1),
    ctx.db
      .select({ n: count() })
      .from(workspaces)
      .where(and(...scope)),
  ]);
  const items = rows.slice(0, input.limit);
  const last = items.at(-1);
  return {
    items: items.map((row) => ({ id: row.id, name: row.name, created_at: row.createdAt })),
    tenant_id: tenantId,
    total: total?.n ?? 0,
    next_cursor:
      rows.length > input.limit && last ? encodeCursor({ bind, value: last.createdAt, id: last.id }) : null,
  };
}
