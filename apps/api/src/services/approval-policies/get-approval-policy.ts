import type { ServiceContext } from "../context.ts";
import { requireWorkspace } from "../workspaces/access.ts";
import { readPolicy, toPolicyView } from "./policy.ts";

export async function getApprovalPolicy(ctx: ServiceContext, tenantId: string, workspaceId: string) {
  await requireWorkspace(ctx.db, tenantId, workspaceId);
  return toPolicyView(workspaceId, await readPolicy(ctx.db, workspaceId));
}
