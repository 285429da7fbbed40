import { type AdminModel, modelProviders, Problem } from "@fleet/contracts";
import { models } from "@fleet/db";
import { newId } from "../../runtime/ids.ts";
import { knownProvider } from "../providers/choice.ts";
import { type Actor, recordAudit } from "../shared/audit.ts";
import type { ServiceContext } from "../shared/context.ts";
import { uniqueViolation } from "../shared/errors.ts";
import { toAdminModel } from "./admin-model-view.ts";
import { bumpCatalogueVersion } from "./catalogue.ts";

/** Adds a row; the database's unique (provider, model_id) settles concurrent creates of one model. */
export async function createModel(
  ctx: ServiceContext,
  actor: Actor,
  input: {
    provider: string;
    model_id: string;
    context_cap_tokens: number;
    input_nanos_per_mtok: number;
    cached_input_nanos_per_mtok: number;
    output_nanos_per_mtok: number;
  },
): Promise<AdminModel> {
  const provider = knownProvider(input.provider, modelProviders);
  const now = ctx.now();
  try {
    const row = await ctx.db.transaction(async (tx) => {
      const [inserted] = await tx
        .insert(models)
        .values({
          uid: newId(now),
          provider,
          modelId: input.model_id,
          contextCapTokens: input.context_cap_tokens,
          inputNanosPerMtok: input.input_nanos_per_mtok,
          cachedInputNanosPerMtok: input.cached_input_nanos_per_mtok,
          outputNanosPerMtok: input.output_nanos_per_mtok,
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      await bumpCatalogueVersion(tx, now);
      await recordAudit(tx, {
        actor,
        at: now,
        tenantId: null,
        workspaceId: null,
        action: "model.create",
        target: `model:${inserted!.uid}`,
        details: { provider, model_id: input.model_id },
      });
      return inserted!;
    });
    return toAdminModel(row);
  } catch (error) {
    if (uniqueViolation(error, "models_provider_model_key")) {
      throw new Problem("UZ-PROVIDER-008", {
        detail: `The catalogue already holds ${provider} model ${input.model_id}.`,
        current_state: "exists",
      });
    }
    throw error;
  }
}
