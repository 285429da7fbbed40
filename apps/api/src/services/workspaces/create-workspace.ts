import { Problem } from "@fleet/contracts";
import { workspaces } from "@fleet/db";
import { newId } from "../../runtime/ids.ts";
import { type Actor, recordAudit } from "../shared/audit.ts";
import type { ServiceContext } from "../shared/context.ts";
import { uniqueViolation } from "../shared/errors.ts";

export async function createWorkspace(ctx: ServiceContext, actor: Actor, tenantId: string, name: string) {
  const now = ctx.now();
  const id = newId(now);
  try {
    await ctx.db.transaction(async (tx) => {
      await tx.insert(workspaces).values({ id, tenantId, name, createdAt: now });
      await recordAudit(tx, {
        actor,
        at: now,
        tenantId,
        workspaceId: id,
        action: "workspace.create",
        target: `workspace:${id}`,
        details: { name },
      });
    });
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
