import { sql } from "drizzle-orm";
import { bigint, check, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { models } from "./models.ts";
import { workspaces } from "./workspaces.ts";

/**
 * The platform's default provider, used by tenants that chose `provider: "platform"`. One row. Its API
 * key is not stored here: it is the `provider_api_key` secret `secret_name` in the source workspace,
 * opened where it is used.
 */
export const platformKeys = pgTable(
  "platform_keys",
  {
    /** Always `default`: the platform has one default provider. */
    slot: text("slot").primaryKey(),
    provider: text("provider").notNull(),
    sourceWorkspaceId: uuid("source_workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "restrict" }),
    /** The secret holding the key in the source workspace: `<PROVIDER>_API_KEY`, e.g. `ANTHROPIC_API_KEY`. */
    secretName: text("secret_name").notNull(),
    /** The default model; the catalogue row cannot be deleted while this points at it. */
    modelUid: uuid("model_uid")
      .notNull()
      .references(() => models.uid, { onDelete: "restrict" }),
    /** Only for `openai_compatible`: an https URL that resolved to public addresses when it was set. */
    baseUrl: text("base_url"),
    updatedAt: bigint("updated_at", { mode: "number" }).notNull(),
  },
  (t) => [
    check("platform_keys_one_row", sql`${t.slot} = 'default'`),
    check("platform_keys_provider", sql`${t.provider} in ('anthropic', 'openai', 'openai_compatible')`),
    check(
      "platform_keys_base_url",
      sql`(${t.provider} = 'openai_compatible') = (${t.baseUrl} is not null) and (${t.baseUrl} is null or ${t.baseUrl} like 'https://%')`,
    ),
  ],
);
