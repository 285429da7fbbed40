import { bigint, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { workspaces } from "./workspaces.ts";

/**
 * A workspace's webhook secret, one per workspace, sealed by the vault as secrets are (a data key of its
 * own wrapped by the master key, both bound to the workspace). It signs and verifies webhooks in both
 * directions. Rotating replaces the row's sealed value: the previous secret stops verifying at once.
 */
export const webhookSecrets = pgTable("webhook_secrets", {
  workspaceId: uuid("workspace_id")
    .primaryKey()
    .references(() => workspaces.id, { onDelete: "cascade" }),
  /** base64 of iv ‖ tag ‖ the secret's data key encrypted under the master key. */
  wrappedKey: text("wrapped_key").notNull(),
  /** base64 of iv ‖ tag ‖ the secret encrypted under the data key. */
  ciphertext: text("ciphertext").notNull(),
  /** When the secret in force was minted (each rotation sets it anew). */
  createdAt: bigint("created_at", { mode: "number" }).notNull(),
});
