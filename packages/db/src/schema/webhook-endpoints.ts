import { sql } from "drizzle-orm";
import { bigint, boolean, check, index, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { fleets } from "./fleets.ts";
import { tenants } from "./tenants.ts";
import { workspaces } from "./workspaces.ts";

/**
 * A workspace's subscriptions to its outgoing events (docs/decisions/webhooks.md): where to deliver, which
 * event types, optionally for one fleet only. Each endpoint has its own signing secret, sealed by the vault
 * as secrets are (bound to the workspace and to the endpoint's id), never stored in the clear. A rotation
 * keeps the replaced secret beside the new one until `previous_expires_at`, so receivers can switch over.
 */
export const webhookEndpoints = pgTable(
  "webhook_endpoints",
  {
    id: uuid("id").primaryKey(),
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    workspaceId: uuid("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    /** The canonical URL checked at save (https and public, outside dev mode). */
    url: text("url").notNull(),
    description: text("description").notNull(),
    /** The event types it receives (`gate.opened`, …); at least one. */
    eventTypes: text("event_types").array().notNull(),
    /** Only this fleet's events when set; the fleet's deletion deletes the endpoint. */
    fleetId: uuid("fleet_id").references(() => fleets.id, { onDelete: "cascade" }),
    enabled: boolean("enabled").notNull(),
    /**
     * Why the service (not a person) disabled it: `gone` (the receiver answered 410) or `failing` (no 2xx for
     * days, docs/decisions/webhooks.md). Null when enabled, or when a person disabled it.
     */
    disabledReason: text("disabled_reason"),
    /**
     * When the service disabled it: set exactly when `disabled_reason` is (`updated_at` moves with any later
     * change, such as a rotation, so it cannot say when). Shown to the owner beside the reason.
     */
    disabledAt: bigint("disabled_at", { mode: "number" }),
    /**
     * `approval_policy` for the workspace's notice endpoint: the approval policy's escalation URL, kept by
     * the policy (one a workspace), delivered in the notice format (v0, signed with the workspace's notice
     * secret), with no signing secret of its own. Null for an endpoint a person or program made.
     */
    managedBy: text("managed_by"),
    /** The signing secret in force: its data key wrapped by the master key (vault). Null when managed. */
    wrappedKey: text("wrapped_key"),
    /** The signing secret in force, sealed under its data key. */
    ciphertext: text("ciphertext"),
    secretCreatedAt: bigint("secret_created_at", { mode: "number" }),
    /** The secret a rotation replaced, still signing beside the new one until `previous_expires_at`. */
    previousWrappedKey: text("previous_wrapped_key"),
    previousCiphertext: text("previous_ciphertext"),
    /** Set exactly when the previous secret is. */
    previousExpiresAt: bigint("previous_expires_at", { mode: "number" }),
    /** `user:<id>` or `api_key:<id>`. */
    createdBy: text("created_by").notNull(),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
    updatedAt: bigint("updated_at", { mode: "number" }).notNull(),
  },
  (t) => [
    /** The subscribers an act looks up (in its own transaction), and the workspace's list. */
    index("webhook_endpoints_workspace_idx").on(t.workspaceId, t.createdAt, t.id),
    check("webhook_endpoints_event_types", sql`cardinality(${t.eventTypes}) > 0`),
    check(
      "webhook_endpoints_previous_secret",
      sql`(${t.previousWrappedKey} is null) = (${t.previousCiphertext} is null) and (${t.previousWrappedKey} is null) = (${t.previousExpiresAt} is null)`,
    ),
    check(
      "webhook_endpoints_disabled_reason",
      sql`${t.disabledReason} is null or ${t.disabledReason} in ('gone', 'failing')`,
    ),
    check("webhook_endpoints_disabled_at", sql`(${t.disabledReason} is null) = (${t.disabledAt} is null)`),
    check(
      "webhook_endpoints_managed_secret",
      sql`(${t.managedBy} is null or ${t.managedBy} = 'approval_policy') and (${t.managedBy} is null) = (${t.wrappedKey} is not null) and (${t.wrappedKey} is null) = (${t.ciphertext} is null) and (${t.wrappedKey} is null) = (${t.secretCreatedAt} is null)`,
    ),
    /** One notice endpoint a workspace. */
    uniqueIndex("webhook_endpoints_managed_key").on(t.workspaceId).where(sql`${t.managedBy} is not null`),
  ],
);
