import { sql } from "drizzle-orm";
import { bigint, check, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { tenants } from "./tenants.ts";
import { workspaces } from "./workspaces.ts";

/**
 * A workspace's connection to an outside provider (`slack`, `datadog`): one row per (workspace, provider) while it is
 * connected. The provider's token is sealed by the vault as secrets are (a data key of its own wrapped by
 * the master key, bound to the workspace and `#connector:<provider>`); no route returns it. Disconnecting
 * deletes the row, and its channel routes with it.
 */
export const connectors = pgTable(
  "connectors",
  {
    id: uuid("id").primaryKey(),
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    workspaceId: uuid("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    provider: text("provider").notNull(),
    /** `connected`, or `reconnect_required` once the vendor said the token is revoked. */
    status: text("status").notNull(),
    /**
     * The vendor's team (workspace) the token belongs to: events name it. Null for an API-key connector
     * (`datadog`), whose key check names no team; the unique index below lets nulls repeat.
     */
    teamId: text("team_id"),
    teamName: text("team_name"),
    /** The app's own user in the team: a message mentioning it is addressed to the fleet. */
    botUserId: text("bot_user_id"),
    /** base64 of iv ‖ tag ‖ the token's data key encrypted under the master key. */
    wrappedKey: text("wrapped_key").notNull(),
    /** base64 of iv ‖ tag ‖ `{access_token}` (an API-key connector: `{api_key}`) encrypted under the data key. */
    ciphertext: text("ciphertext").notNull(),
    /** Who connected it (`user:<id>`, `api_key:<id>`), from the signed state. */
    connectedBy: text("connected_by").notNull(),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
    updatedAt: bigint("updated_at", { mode: "number" }).notNull(),
  },
  (t) => [
    uniqueIndex("connectors_workspace_provider_key").on(t.workspaceId, t.provider),
    /** An event names its team: one workspace holds a team's install at a time. */
    uniqueIndex("connectors_provider_team_key").on(t.provider, t.teamId),
    check("connectors_status", sql`${t.status} in ('connected', 'reconnect_required')`),
  ],
);
