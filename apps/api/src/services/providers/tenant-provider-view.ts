import { Problem, type TenantProviderChoice } from "@fleet/contracts";
import { eq, models, tenantProviders } from "@fleet/db";
import type { ServiceContext } from "../shared/context.ts";

/** The tenant's provider as it reads back; 404 UZ-PROVIDER-003 when none is set. */
export async function readTenantProvider(ctx: ServiceContext, tenantId: string) {
  const [row] = await ctx.db
    .select({
      provider: tenantProviders.provider,
      model: models.modelId,
      baseUrl: tenantProviders.baseUrl,
      hasKey: tenantProviders.ciphertext,
      updatedAt: tenantProviders.updatedAt,
    })
    .from(tenantProviders)
    .innerJoin(models, eq(models.uid, tenantProviders.modelUid))
    .where(eq(tenantProviders.tenantId, tenantId));
  if (row === undefined) {
    throw new Problem("UZ-PROVIDER-003", { detail: "The tenant has no provider set." });
  }
  return {
    provider: row.provider as TenantProviderChoice,
    model: row.model,
    base_url: row.baseUrl,
    has_api_key: row.hasKey !== null,
    updated_at: row.updatedAt,
  };
}
