import { bigint, index, pgTable, primaryKey, text, uuid } from "drizzle-orm/pg-core";
import { workspaces } from "./workspaces.ts";

/**
 * Nonces of verified webhook calls, per workspace: a nonce is accepted once. A row is kept until no call
 * signed with it could still pass the 300 s drift check, then deleted by a later call of the workspace.
 */
export const webhookNonces = pgTable(
  "webhook_nonces",
  {
    workspaceId: uuid("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    nonce: text("nonce").notNull(),
    usedAt: bigint("used_at", { mode: "number" }).notNull(),
    /** After this no call carrying the nonce can verify, so the row may go. */
    expiresAt: bigint("expires_at", { mode: "number" }).notNull(),
  },
  (t) => [
    primaryKey({ name: "webhook_nonces_pkey", columns: [t.workspaceId, t.nonce] }),
    index("webhook_nonces_expiry_idx").on(t.workspaceId, t.expiresAt),
  ],
);
