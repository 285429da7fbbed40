import { sql } from "drizzle-orm";
import { bigint, check, pgTable, primaryKey, text, uuid } from "drizzle-orm/pg-core";
import { workspaces } from "./workspaces.ts";

/**
 * A workspace's webhook secrets, one per direction, each sealed by the vault as secrets are (a data key of
 * its own wrapped by the master key, both bound to the workspace and to the direction's vault name).
 * `incoming` verifies the grant-approval webhook; `outgoing` signs the notices the service sends (a gate's
 * escalation, a budget alert). Two secrets, so a receiver of notices cannot approve grants. Rotating
 * replaces the row's sealed value: the previous secret stops verifying at once.
 */
export const webhookSecrets = pgTable(
  "webhook_secrets",
  {
    workspaceId: uuid("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    /** `incoming` (grant decisions sent to the service) or `outgoing` (notices the service sends). */
    direction: text("direction").notNull(),
    /** base64 of iv ‖ tag ‖ the secret's data key encrypted under the master key. */
    wrappedKey: text("wrapped_key").notNull(),
    /** base64 of iv ‖ tag ‖ the secret encrypted under the data key. */
    ciphertext: text("ciphertext").notNull(),
    /** When the secret in force was minted (each rotation sets it anew). */
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.workspaceId, table.direction] }),
    check("webhook_secrets_direction", sql`${table.direction} in ('incoming', 'outgoing')`),
  ],
);
