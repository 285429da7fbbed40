import { Problem, type TenantProviderChoice } from "@fleet/contracts";
import { eq, models, platformKeys, tenantProviders } from "@fleet/db";
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
    if (await scriptedDemoModelStandsIn(ctx)) {
      throw new Problem("UZ-PROVIDER-003", {
        detail:
          "The tenant has no provider set, nor has the platform: in dev mode the fleets' model calls go to the scripted demo model, which is not a real model.",
        current_state: "scripted_demo_model",
      });
    }
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

/**
 * Whether the model gateway's calls of a tenant without a provider go to the scripted demo model: dev
 * mode, FLEET_DEV_SCRIPTED_MODEL_URL set, and no platform default (model-gateway/chat-completions.ts).
 */
async function scriptedDemoModelStandsIn(ctx: ServiceContext): Promise<boolean> {
  if (!ctx.config.devMode || ctx.config.modelGateway.devScriptedModelUrl === null) return false;
  const [platform] = await ctx.db.select({ slot: platformKeys.slot }).from(platformKeys).limit(1);
  return platform === undefined;
}
