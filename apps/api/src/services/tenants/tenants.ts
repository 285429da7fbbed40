import { tenantScopes } from "@fleet/contracts";
import { eq, memberships, type Tx, tenants, users, workspaces } from "@fleet/db";
import { newId } from "../../runtime/ids.ts";
import { insertApiKey } from "../api-keys/mint-api-key.ts";
import type { ServiceContext } from "../context.ts";

/** Finds the user with this address, or creates them. */
export async function ensureUser(tx: Tx, email: string, now: number): Promise<string> {
  const address = email.trim().toLowerCase();
  await tx
    .insert(users)
    .values({ id: newId(now), email: address, createdAt: now })
    .onConflictDoNothing();
  const [row] = await tx.select({ id: users.id }).from(users).where(eq(users.email, address));
  return row!.id;
}

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
