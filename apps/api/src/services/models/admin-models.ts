import { type AdminModel, modelProviders, Problem } from "@fleet/contracts";
import { and, count, eq, models, type SQL } from "@fleet/db";
import { newId } from "../../runtime/ids.ts";
import { knownProvider } from "../providers/choice.ts";
import { PLATFORM_MODEL_FK, TENANT_MODEL_FK } from "../providers/model-references.ts";
import type { ServiceContext } from "../shared/context.ts";
import { foreignKeyViolation, uniqueViolation } from "../shared/errors.ts";
import { bumpCatalogueVersion, catalogueReader, type ModelRow, providerIs } from "./catalogue.ts";

export function toAdminModel(row: ModelRow): AdminModel {
  return {
    uid: row.uid,
    provider: row.provider,
    model_id: row.modelId,
    context_cap_tokens: row.contextCapTokens,
    input_nanos_per_mtok: row.inputNanosPerMtok,
    cached_input_nanos_per_mtok: row.cachedInputNanosPerMtok,
    output_nanos_per_mtok: row.outputNanosPerMtok,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}

function notFound(uid: string): Problem {
  return new Problem("UZ-PROVIDER-006", { detail: `No catalogue row has uid ${uid}.` });
}

export async function listAdminModels(
  ctx: ServiceContext,
  input: { provider?: string; starting_after?: string; limit: number },
) {
  const filters: SQL[] = input.provider === undefined ? [] : [providerIs(input.provider)];
  const [page, [total]] = await Promise.all([
    catalogueReader(ctx, "admin-models", input),
    ctx.db
      .select({ n: count() })
      .from(models)
      .where(and(...filters)),
  ]);
  return {
    version: page.version,
    items: page.rows.map(toAdminModel),
    total: total?.n ?? 0,
    next_cursor: page.next_cursor,
  };
}

/** Adds a row; the database's unique (provider, model_id) settles concurrent creates of one model. */
export async function createModel(
  ctx: ServiceContext,
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

/** Sets a row's size or prices; provider and model_id name the row and never change. */
export async function updateModel(
  ctx: ServiceContext,
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
    return updated;
  });
  return toAdminModel(row);
}

/** Removes a row, unless a default points at it: the database's restricting references decide. */
export async function deleteModel(ctx: ServiceContext, uid: string): Promise<void> {
  const now = ctx.now();
  try {
    await ctx.db.transaction(async (tx) => {
      const [deleted] = await tx.delete(models).where(eq(models.uid, uid)).returning({ uid: models.uid });
      if (deleted === undefined) throw notFound(uid);
      await bumpCatalogueVersion(tx, now);
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
