import { sql } from "drizzle-orm";
import { bigint, index, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { fleetEventStatus, fleetEventType } from "./domains.ts";
import { fleets } from "./fleets.ts";

/** Records of a fleet's runs: what asked for the run, and what the run answered. */
export const fleetEvents = pgTable(
  "fleet_events",
  {
    id: uuid("id").primaryKey(),
    workspaceId: uuid("workspace_id").notNull(),
    fleetId: uuid("fleet_id")
      .notNull()
      .references(() => fleets.id, { onDelete: "cascade" }),
    /** `user:<id>`, `api_key:<id>`, `cron:<schedule_id>`, `runner:<id>` or `webhook:<source>`. */
    actor: text("actor").notNull(),
    eventType: fleetEventType("event_type").notNull(),
    /** The trigger payload as stored, as text. */
    requestJson: text("request_json").notNull(),
    status: fleetEventStatus("status").notNull(),
    responseText: text("response_text"),
    failureLabel: text("failure_label"),
    failureDetail: text("failure_detail"),
    checkpointId: text("checkpoint_id"),
    resumesEventId: uuid("resumes_event_id"),
    /**
     * The event this one runs again (`POST …/events/{id}/retry`), in the same fleet. No foreign key, as
     * `resumes_event_id`: both rows go with their fleet, and a key would cost every fleet delete a lookup.
     */
    retryOf: uuid("retry_of"),
    tokens: bigint("tokens", { mode: "number" }),
    wallMs: bigint("wall_ms", { mode: "number" }),
    costNanos: bigint("cost_nanos", { mode: "number" }),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
    updatedAt: bigint("updated_at", { mode: "number" }).notNull(),
  },
  (t) => [
    index("fleet_events_fleet_page_idx").on(t.fleetId, t.createdAt, t.id),
    index("fleet_events_workspace_page_idx").on(t.workspaceId, t.createdAt, t.id),
    /** The work waiting for a runner, oldest first. */
    index("fleet_events_pending_idx").on(t.fleetId, t.createdAt, t.id).where(sql`${t.status} = 'received'`),
    /** All waiting work, oldest first: where a runner's acquire starts looking. */
    index("fleet_events_waiting_idx").on(t.createdAt, t.id).where(sql`${t.status} = 'received'`),
    /** A workspace's waiting work, oldest first: the overview's "waiting for a runner". */
    index("fleet_events_workspace_waiting_idx")
      .on(t.workspaceId, t.createdAt, t.id)
      .where(sql`${t.status} = 'received'`),
    /** A workspace's failed runs by when they failed: the overview's "failed in the last 24 h". */
    index("fleet_events_workspace_failed_idx")
      .on(t.workspaceId, t.updatedAt, t.id)
      .where(sql`${t.status} = 'fleet_error'`),
  ],
);
