import type { ServiceContext } from "../shared/context.ts";
import { requireWorkspace } from "../shared/tenancy.ts";
import { readPolicy, toPolicyView } from "./policy.ts";

export async function getApprovalPolicy(ctx: ServiceContext, tenantId: string, workspaceId: string) {
  await requireWorkspace(ctx.db, tenantId, workspaceId);
  return toPolicyView(workspaceId, await readPolicy(ctx.db, workspaceId));
}
