import { bigint, index, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { workspaces } from "./workspaces.ts";

/**
 * The nonces of OAuth connects under way. The `state` handed to the vendor is signed and carries the
 * nonce, workspace, caller and expiry; the callback deletes the nonce's row to spend it, so a state is
 * good once. Expired rows are removed by later connects.
 */
export const connectorOauthStates = pgTable(
  "connector_oauth_states",
  {
    nonce: text("nonce").primaryKey(),
    workspaceId: uuid("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    provider: text("provider").notNull(),
    /** Who started the connect (`user:<id>`, `api_key:<id>`). */
    caller: text("caller").notNull(),
    expiresAt: bigint("expires_at", { mode: "number" }).notNull(),
  },
  (t) => [index("connector_oauth_states_expiry_idx").on(t.expiresAt)],
);
