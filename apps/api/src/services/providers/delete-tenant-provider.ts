import { Problem } from "@fleet/contracts";
import { eq, platformKeys, tenantProviders } from "@fleet/db";
import { type Actor, recordAudit } from "../shared/audit.ts";
import type { ServiceContext } from "../shared/context.ts";

/**
 * Returns the tenant to the platform default: its provider row and sealed key are removed. Refused while
 * the platform has no default, so a tenant is never left with no provider at all.
 */
export async function deleteTenantProvider(
  ctx: ServiceContext,
  actor: Actor,
  tenantId: string,
): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const [held] = await tx
      .select({ tenantId: tenantProviders.tenantId, provider: tenantProviders.provider })
      .from(tenantProviders)
      .where(eq(tenantProviders.tenantId, tenantId))
      .for("update");
    if (held === undefined) {
      throw new Problem("UZ-PROVIDER-003", {
        detail: "The tenant has no provider set; it already uses the platform default.",
      });
    }
    const [platform] = await tx.select({ slot: platformKeys.slot }).from(platformKeys).for("share");
    if (platform === undefined) {
      throw new Problem("UZ-PROVIDER-009", {
        detail: "The platform has no default provider configured; the tenant's provider is kept.",
        current_state: "no_platform_default",
      });
    }
    await tx.delete(tenantProviders).where(eq(tenantProviders.tenantId, tenantId));
    await recordAudit(tx, {
      actor,
      at: ctx.now(),
      tenantId,
      workspaceId: null,
      action: "provider.delete",
      target: "tenant_provider",
      details: { provider: held.provider },
    });
  });
}
