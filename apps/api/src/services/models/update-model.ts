import { type AdminModel, Problem } from "@fleet/contracts";
import { eq, models } from "@fleet/db";
import { type Actor, recordAudit } from "../shared/audit.ts";
import type { ServiceContext } from "../shared/context.ts";
import { notFound, toAdminModel } from "./admin-model-view.ts";
import { bumpCatalogueVersion } from "./catalogue.ts";

/** Sets a row's size or prices; provider and model_id name the row and never change. */
export async function updateModel(
  ctx: ServiceContext,
  actor: Actor,
  input: {
    uid: string;
    context_cap_tokens?: number;
    input_nanos_per_mtok?: number;
    cached_input_nanos_per_mtok?: number;
    output_nanos_per_mtok?: number;
  },
): Promise<AdminModel> {
  const changes = {
    contextCapTokens: input.context_cap_tokens,
    inputNanosPerMtok: input.input_nanos_per_mtok,
    cachedInputNanosPerMtok: input.cached_input_nanos_per_mtok,
    outputNanosPerMtok: input.output_nanos_per_mtok,
  };
  if (Object.values(changes).every((value) => value === undefined)) {
    throw new Problem("UZ-REQ-001", {
      detail:
        "Give at least one of context_cap_tokens, input_nanos_per_mtok, cached_input_nanos_per_mtok, output_nanos_per_mtok.",
    });
  }
  const now = ctx.now();
  const row = await ctx.db.transaction(async (tx) => {
    const [updated] = await tx
      .update(models)
      .set({ ...changes, updatedAt: now })
      .where(eq(models.uid, input.uid))
      .returning();
    if (updated === undefined) throw notFound(input.uid);
    await bumpCatalogueVersion(tx, now);
    await recordAudit(tx, {
      actor,
      at: now,
      tenantId: null,
      workspaceId: null,
      action: "model.update",
      target: `model:${updated.uid}`,
      details: {
        provider: updated.provider,
        model_id: updated.modelId,
        changed: Object.fromEntries(
          Object.entries(input).filter(([field, value]) => field !== "uid" && value !== undefined),
        ),
      },
    });
    return updated;
  });
  return toAdminModel(row);
}
