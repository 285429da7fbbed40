import { sql } from "drizzle-orm";
import { bigint, check, index, integer, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";

/** Providers a catalogue row (and a platform default) may name. */
export const modelProviders = ["anthropic", "openai", "openai_compatible"] as const;
export type ModelProvider = (typeof modelProviders)[number];

/**
 * The model catalogue operators keep: one priced row per (provider, model_id). Tenants read it at
 * `GET /v1/models`, where `id` is the `model_id`; the operator routes address rows by `uid`. A row a
 * default points at (the platform key's or a tenant's provider) cannot be deleted: those references
 * restrict deletion in the database.
 */
export const models = pgTable(
  "models",
  {
    uid: uuid("uid").primaryKey(),
    provider: text("provider").$type<ModelProvider>().notNull(),
    /** The model's name at its provider, e.g. `claude-sonnet-4-5`; public as the item's `id`. */
    modelId: text("model_id").notNull(),
    contextCapTokens: integer("context_cap_tokens").notNull(),
    /** Prices in nano-dollars per million tokens. */
    inputNanosPerMtok: bigint("input_nanos_per_mtok", { mode: "number" }).notNull(),
    cachedInputNanosPerMtok: bigint("cached_input_nanos_per_mtok", { mode: "number" }).notNull(),
    outputNanosPerMtok: bigint("output_nanos_per_mtok", { mode: "number" }).notNull(),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
    updatedAt: bigint("updated_at", { mode: "number" }).notNull(),
  },
  (t) => [
    uniqueIndex("models_provider_model_key").on(t.provider, t.modelId),
    index("models_page_idx").on(t.createdAt, t.uid),
    check("models_provider", sql`${t.provider} in ('anthropic', 'openai', 'openai_compatible')`),
    check("models_model_id", sql`char_length(${t.modelId}) between 1 and 200`),
    check("models_context_cap", sql`${t.contextCapTokens} > 0`),
    check(
      "models_prices",
      sql`${t.inputNanosPerMtok} >= 0 and ${t.cachedInputNanosPerMtok} >= 0 and ${t.outputNanosPerMtok} >= 0`,
    ),
  ],
);
