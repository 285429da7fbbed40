import { type ModelProvider, modelProviders, Problem } from "@fleet/contracts";
import { and, eq, platformKeys, secrets, workspaces } from "@fleet/db";
import { type Resolve, systemResolve } from "../../runtime/public-address.ts";
import { openSecret } from "../secrets/stored-secrets.ts";
import { type Actor, recordAudit } from "../shared/audit.ts";
import type { ServiceContext } from "../shared/context.ts";
import { foreignKeyViolation } from "../shared/errors.ts";
import { knownProvider, pricedModel, providerBaseUrl, unpriced } from "./choice.ts";
import { PLATFORM_MODEL_FK } from "./model-references.ts";

const SLOT = "default";
const PLATFORM_WORKSPACE_FK = "platform_keys_source_workspace_id_workspaces_id_fk";

/** The secret the platform key is read from in its source workspace: `ANTHROPIC_API_KEY` and so on. */
export function platformSecretName(provider: ModelProvider): string {
  return `${provider.toUpperCase()}_API_KEY`;
}

/**
 * Sets the platform's default provider. The key stays where the operator put it (a provider_api_key
 * secret in the source workspace, holding `{api_key}`); it is opened here only to check it is usable.
 */
export async function replacePlatformKey(
  ctx: ServiceContext,
  actor: Actor,
  input: { provider: string; source_workspace_id: string; model: string; base_url?: string },
  resolve: Resolve = systemResolve,
) {
  const provider = knownProvider(input.provider, modelProviders);
  const baseUrl = await providerBaseUrl(provider, input.base_url, resolve);
  const modelUid = await pricedModel(ctx.db, provider, input.model);
  const [workspace] = await ctx.db
    .select({ id: workspaces.id })
    .from(workspaces)
    .where(eq(workspaces.id, input.source_workspace_id));
  if (workspace === undefined) {
    throw new Problem("UZ-WORKSPACE-002", { detail: `No workspace ${input.source_workspace_id}.` });
  }
  const secretName = platformSecretName(provider);
  const [secret] = await ctx.db
    .select({ kind: secrets.kind })
    .from(secrets)
    .where(and(eq(secrets.workspaceId, input.source_workspace_id), eq(secrets.name, secretName)));
  if (secret?.kind !== "provider_api_key") {
    throw new Problem("UZ-VAULT-003", {
      detail: `The workspace holds no provider_api_key secret named ${secretName}.`,
      missing_secrets: [secretName],
    });
  }
  const data = await openSecret(ctx, input.source_workspace_id, secretName);
  if (typeof data.api_key !== "string" || data.api_key.length === 0) {
    throw new Problem("UZ-VAULT-001", {
      detail: `The secret ${secretName} must hold a non-empty string api_key.`,
    });
  }
  const now = ctx.now();
  const values = {
    provider,
    sourceWorkspaceId: input.source_workspace_id,
    secretName,
    modelUid,
    baseUrl,
    updatedAt: now,
  };
  try {
    await ctx.db.transaction(async (tx) => {
      await tx
        .insert(platformKeys)
        .values({ slot: SLOT, ...values })
        .onConflictDoUpdate({ target: platformKeys.slot, set: values });
      // Operator-plane: the platform's default belongs to no tenant. The key stays in its secret.
      await recordAudit(tx, {
        actor,
        at: now,
        tenantId: null,
        workspaceId: null,
        action: "platform_key.replace",
        target: `platform_key:${SLOT}`,
        details: {
          provider,
          source_workspace_id: input.source_workspace_id,
          secret_name: secretName,
          model: input.model,
          base_url: baseUrl,
        },
      });
    });
  } catch (error) {
    // The model's row or the workspace was deleted between the lookups and the write.
    const constraint = foreignKeyViolation(error);
    if (constraint === PLATFORM_MODEL_FK) throw unpriced(provider, input.model);
    if (constraint === PLATFORM_WORKSPACE_FK) {
      throw new Problem("UZ-WORKSPACE-002", { detail: `No workspace ${input.source_workspace_id}.` });
    }
    throw error;
  }
  return {
    provider,
    source_workspace_id: input.source_workspace_id,
    secret_name: secretName,
    model: input.model,
    base_url: baseUrl,
    updated_at: now,
  };
}
