import { sql } from "drizzle-orm";
import { bigint, check, index, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { fleets } from "./fleets.ts";
import { tenants } from "./tenants.ts";
import { workspaces } from "./workspaces.ts";

/**
 * A fleet's permission to use a third-party service: one row per (fleet, service). `pending` until a
 * person approves it (through its `integration_grant` gate in the inbox, or the signed grant-approval
 * webhook) → `approved`; a denial or a revoke → `revoked`; asking again after a revoke returns the same
 * row to `pending` with a new gate.
 */
export const integrationGrants = pgTable(
  "integration_grants",
  {
    id: uuid("id").primaryKey(),
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    workspaceId: uuid("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    /** A grant belongs to its fleet: deleting the fleet deletes its grants. */
    fleetId: uuid("fleet_id")
      .notNull()
      .references(() => fleets.id, { onDelete: "cascade" }),
    /** The service's slug, e.g. `github`, `slack`. */
    service: text("service").notNull(),
    status: text("status").notNull(),
    /** Why the fleet asks, as the latest request said. */
    reason: text("reason").notNull(),
    /** Who made the latest request (`user:<id>`, `api_key:<id>`). */
    requestedBy: text("requested_by").notNull(),
    /** The latest request (a re-request after a revoke moves it). */
    requestedAt: bigint("requested_at", { mode: "number" }).notNull(),
    /** Who decided: `user:<id>`/`api_key:<id>` (inbox or revoke), `webhook:grant-approval`; null while pending. */
    decidedBy: text("decided_by"),
    decidedAt: bigint("decided_at", { mode: "number" }),
    /** The `integration_grant` gate of the latest request; deciding it decides the grant. */
    gateId: uuid("gate_id"),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
    updatedAt: bigint("updated_at", { mode: "number" }).notNull(),
  },
  (t) => [
    uniqueIndex("integration_grants_fleet_service_key").on(t.fleetId, t.service),
    /** A fleet's grants, newest first, keyset over (created_at, id). */
    index("integration_grants_fleet_page_idx").on(t.fleetId, t.createdAt, t.id),
    /** Deciding a gate finds its grant. */
    index("integration_grants_gate_idx").on(t.gateId),
    check("integration_grants_status", sql`${t.status} in ('pending', 'approved', 'revoked')`),
    check(
      "integration_grants_decision",
      sql`(${t.status} = 'pending') = (${t.decidedAt} is null and ${t.decidedBy} is null)`,
    ),
  ],
);
