import type { Sealed } from "../../runtime/vault.ts";
import type { ServiceContext } from "../shared/context.ts";

/**
 * A tenant's provider key is sealed by the workspace-secrets vault under its own binding: the vault's
 * associated data becomes `fleet-secret:v1:tenant:<tenant_id>:provider_api_key`. Workspace ids are
 * UUIDs, so no workspace secret can carry that binding, and a sealed key opens only for its tenant.
 */
const binding = (tenantId: string) => [`tenant:${tenantId}`, "provider_api_key"] as const;

export function sealTenantKey(ctx: ServiceContext, tenantId: string, apiKey: string): Sealed {
  return ctx.vault.seal(...binding(tenantId), { api_key: apiKey });
}

/** The tenant's key, for the code that calls the provider; never served. */
export function openTenantKey(ctx: ServiceContext, tenantId: string, sealed: Sealed): string {
  return String(ctx.vault.open(...binding(tenantId), sealed).api_key);
}
