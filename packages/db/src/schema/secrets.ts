import { sql } from "drizzle-orm";
import { bigint, check, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { workspaces } from "./workspaces.ts";

/**
 * A workspace's secrets, sealed: the value is encrypted with a key of its own (AES-256-GCM), and that
 * key is wrapped by the master key. Both carry the workspace and name as associated data, so a sealed
 * value copied onto another row does not open.
 */
export const secrets = pgTable(
  "secrets",
  {
    id: uuid("id").primaryKey(),
    workspaceId: uuid("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    kind: text("kind").notNull(),
    /** base64 of iv ‖ tag ‖ the secret's data key encrypted under the master key. */
    wrappedKey: text("wrapped_key").notNull(),
    /** base64 of iv ‖ tag ‖ the JSON body encrypted under the data key. */
    ciphertext: text("ciphertext").notNull(),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
    updatedAt: bigint("updated_at", { mode: "number" }).notNull(),
  },
  (t) => [
    uniqueIndex("secrets_workspace_name_key").on(t.workspaceId, t.name),
    check("secrets_kind", sql`${t.kind} in ('generic', 'provider_api_key')`),
  ],
);
