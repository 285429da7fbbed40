import { Problem } from "@fleet/contracts";
import { eq, models } from "@fleet/db";
import { PLATFORM_MODEL_FK, TENANT_MODEL_FK } from "../providers/model-references.ts";
import { type Actor, recordAudit } from "../shared/audit.ts";
import type { ServiceContext } from "../shared/context.ts";
import { foreignKeyViolation } from "../shared/errors.ts";
import { notFound } from "./admin-model-view.ts";
import { bumpCatalogueVersion } from "./catalogue.ts";

/** Removes a row, unless a default points at it: the database's restricting references decide. */
export async function deleteModel(ctx: ServiceContext, actor: Actor, uid: string): Promise<void> {
  const now = ctx.now();
  try {
    await ctx.db.transaction(async (tx) => {
      const [deleted] = await tx
        .delete(models)
        .where(eq(models.uid, uid))
        .returning({ uid: models.uid, provider: models.provider, modelId: models.modelId });
      if (deleted === undefined) throw notFound(uid);
      await bumpCatalogueVersion(tx, now);
      await recordAudit(tx, {
        actor,
        at: now,
        tenantId: null,
        workspaceId: null,
        action: "model.delete",
        target: `model:${uid}`,
        details: { provider: deleted.provider, model_id: deleted.modelId },
      });
    });
  } catch (error) {
    const constraint = foreignKeyViolation(error);
    if (constraint === PLATFORM_MODEL_FK || constraint === TENANT_MODEL_FK) {
      const holder =
        constraint === PLATFORM_MODEL_FK ? "the platform default's model" : "a tenant's provider model";
      throw new Problem("UZ-PROVIDER-007", {
        detail: `Catalogue row ${uid} is ${holder}; point that default at another model first.`,
        current_state: "active_default",
      });
    }
    throw error;
  }
}
