import { sql } from "drizzle-orm";
import { bigint, check, index, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { models } from "./models.ts";
import { tenants } from "./tenants.ts";

/**
 * A tenant's model provider: `platform` (the platform default's provider and key), a named provider
 * with the tenant's own key (`anthropic`, `openai`), or `openai_compatible` at the tenant's https
 * `base_url`. The key is sealed by the vault, bound to the tenant; it is never returned.
 */
export const tenantProviders = pgTable(
  "tenant_providers",
  {
    tenantId: uuid("tenant_id")
      .primaryKey()
      .references(() => tenants.id, { onDelete: "cascade" }),
    provider: text("provider").notNull(),
    /** The tenant's model; the catalogue row cannot be deleted while this points at it. */
    modelUid: uuid("model_uid")
      .notNull()
      .references(() => models.uid, { onDelete: "restrict" }),
    /** Only for `openai_compatible`: an https URL that resolved to public addresses when it was set. */
    baseUrl: text("base_url"),
    /** base64 of iv ‖ tag ‖ the key's data key under the master key; null when no key is held. */
    wrappedKey: text("wrapped_key"),
    /** base64 of iv ‖ tag ‖ `{"api_key": …}` under the data key; null when no key is held. */
    ciphertext: text("ciphertext"),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
    updatedAt: bigint("updated_at", { mode: "number" }).notNull(),
  },
  (t) => [
    // Deleting a catalogue row checks this reference.
    index("tenant_providers_model_idx").on(t.modelUid),
    check(
      "tenant_providers_provider",
      sql`${t.provider} in ('platform', 'anthropic', 'openai', 'openai_compatible')`,
    ),
    check("tenant_providers_sealed", sql`(${t.wrappedKey} is null) = (${t.ciphertext} is null)`),
    check(
      "tenant_providers_base_url",
      sql`(${t.provider} = 'openai_compatible') = (${t.baseUrl} is not null) and (${t.baseUrl} is null or ${t.baseUrl} like 'https://%')`,
    ),
    check(
      "tenant_providers_key",
      sql`case ${t.provider} when 'platform' then ${t.ciphertext} is null when 'openai_compatible' then true else ${t.ciphertext} is not null end`,
    ),
  ],
);
