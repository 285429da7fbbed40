import { type ModelProvider, namedProviders, Problem, tenantProviderChoices } from "@fleet/contracts";
import { eq, platformKeys, tenantProviders } from "@fleet/db";
import { type Resolve, systemResolve } from "../../runtime/public-address.ts";
import type { Sealed } from "../../runtime/vault.ts";
import { type Actor, recordAudit } from "../shared/audit.ts";
import type { ServiceContext } from "../shared/context.ts";
import { foreignKeyViolation } from "../shared/errors.ts";
import { knownProvider, pricedModel, providerBaseUrl, unpriced } from "./choice.ts";
import { TENANT_MODEL_FK } from "./model-references.ts";
import { sealTenantKey } from "./tenant-key.ts";
import { readTenantProvider } from "./tenant-provider-view.ts";

/**
 * Sets the tenant's provider. An api_key is sealed at once and never leaves the vault again; without one,
 * the held key is kept only when provider and base_url are unchanged, so a key is never sent to an
 * endpoint other than the one it was given for.
 */
export async function replaceTenantProvider(
  ctx: ServiceContext,
  actor: Actor,
  tenantId: string,
  input: { provider: string; api_key?: string; model: string; base_url?: string },
  resolve: Resolve = systemResolve,
) {
  const provider = knownProvider(input.provider, tenantProviderChoices);
  const baseUrl = await providerBaseUrl(provider, input.base_url, resolve);
  if (provider === "platform" && input.api_key !== undefined) {
    throw new Problem("UZ-REQ-001", {
      detail: "api_key is not accepted with provider platform: the platform default's key is used.",
    });
  }
  const fresh = input.api_key === undefined ? null : sealTenantKey(ctx, tenantId, input.api_key);
  const now = ctx.now();
  try {
    await ctx.db.transaction(async (tx) => {
      let modelUid: string;
      if (provider === "platform") {
        const [platform] = await tx.select({ provider: platformKeys.provider }).from(platformKeys);
        if (platform === undefined) {
          throw new Problem("UZ-PROVIDER-009", {
            detail: "The platform has no default provider configured; bring your own provider and key.",
            current_state: "no_platform_default",
          });
        }
        modelUid = await pricedModel(tx, platform.provider as ModelProvider, input.model);
      } else {
        modelUid = await pricedModel(tx, provider, input.model);
      }
      const [held] = await tx
        .select()
        .from(tenantProviders)
        .where(eq(tenantProviders.tenantId, tenantId))
        .for("update");
      let sealed: Sealed | null = fresh;
      if (sealed === null && held?.provider === provider && held.baseUrl === baseUrl && held.ciphertext) {
        sealed = { wrappedKey: held.wrappedKey!, ciphertext: held.ciphertext };
      }
      if (sealed === null && (namedProviders as readonly string[]).includes(provider)) {
        throw new Problem("UZ-PROVIDER-002", { detail: `${provider} needs an api_key.` });
      }
      const values = {
        provider,
        modelUid,
        baseUrl,
        wrappedKey: sealed?.wrappedKey ?? null,
        ciphertext: sealed?.ciphertext ?? null,
        updatedAt: now,
      };
      await tx
        .insert(tenantProviders)
        .values({ tenantId, createdAt: now, ...values })
        .onConflictDoUpdate({ target: tenantProviders.tenantId, set: values });
      await recordAudit(tx, {
        actor,
        at: now,
        tenantId,
        workspaceId: null,
        action: "provider.replace",
        target: "tenant_provider",
        // Whether a key was given, kept or is absent; never the key.
        details: {
          provider,
          model: input.model,
          base_url: baseUrl,
          api_key: fresh !== null ? "replaced" : sealed !== null ? "kept" : "none",
        },
      });
    });
  } catch (error) {
    // The model's row was deleted between the lookup and the write.
    if (foreignKeyViolation(error) === TENANT_MODEL_FK) throw unpriced(provider, input.model);
    throw error;
  }
  return readTenantProvider(ctx, tenantId);
}
