import type { ServiceContext } from "../shared/context.ts";
import { listWorkspaces } from "./list-workspaces.ts";

/**
 * The workspaces a member may see. Every member of a tenant sees all of its workspaces (access inside one
 * is by scope, not by workspace), so this is the tenant's list; a per-workspace membership would narrow
 * it here.
 */
export function listVisibleWorkspaces(
  ctx: ServiceContext,
  tenantId: string,
  input: { name?: string; starting_after?: string; limit: number },
) {
  return listWorkspaces(ctx, tenantId, input);
}
