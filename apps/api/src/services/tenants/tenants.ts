import { tenantScopes } from "@fleet/contracts";
import { memberships, tenants, workspaces } from "@fleet/db";
import { newId } from "../../runtime/ids.ts";
import { insertApiKey } from "../api-keys/api-key-rows.ts";
import { ensureUser } from "../members/members.ts";
import type { ServiceContext } from "../shared/context.ts";

export interface BootstrapResult {
  tenant_id: string;
  workspace_id: string;
  user_id: string;
  api_key: string;
}

/** A tenant, its owner holding every tenant scope, a default workspace and a tenant API key. */
export async function bootstrapTenant(
  ctx: ServiceContext,
  input: { tenantName: string; email: string },
): Promise<BootstrapResult> {
  const now = ctx.now();
  return ctx.db.transaction(async (tx) => {
    const tenantId = newId(now);
    await tx.insert(tenants).values({ id: tenantId, name: input.tenantName, createdAt: now });
    const userId = await ensureUser(tx, input.email, now);
    await tx
      .insert(memberships)
      .values({ tenantId, userId, role: "owner", scopes: [...tenantScopes], createdAt: now });
    const workspaceId = newId(now);
    await tx.insert(workspaces).values({ id: workspaceId, tenantId, name: "default", createdAt: now });
    const key = await insertApiKey(
      tx,
      { tenantId, userId, keyName: "bootstrap", description: "Minted by fleetctl bootstrap" },
      now,
    );
    return { tenant_id: tenantId, workspace_id: workspaceId, user_id: userId, api_key: key.key };
  });
}
