import { sql } from "drizzle-orm";
import { bigint, boolean, index, jsonb, pgTable, text, uuid } from "drizzle-orm/pg-core";

/**
 * The outbox: one row per outgoing event, written in the transaction of the act that caused it (a gate
 * opened, an event completed), and only when an enabled endpoint of the workspace subscribes to it. Its id
 * is the `webhook-id` every delivery of it carries; `data` is the resource as its read route shows it at
 * that moment, secrets masked. The act writes the event alone (`fanned_out` false); a deliverer then
 * writes its deliveries, one per subscribed endpoint, and marks it (`fan-out.ts`).
 */
export const webhookEvents = pgTable(
  "webhook_events",
  {
    id: uuid("id").primaryKey(),
    tenantId: uuid("tenant_id").notNull(),
    /** No foreign key (the act's cost): deleting a workspace deletes its events by trigger. */
    workspaceId: uuid("workspace_id").notNull(),
    /** The fleet it concerns, for an endpoint's fleet filter; no foreign key: the event outlives the fleet. */
    fleetId: uuid("fleet_id"),
    type: text("type").notNull(),
    /** What it is about (`approval_gate:<id>`, `fleet_event:<id>`): deliveries keep order per resource. */
    resource: text("resource").notNull(),
    data: jsonb("data").$type<Record<string, unknown>>().notNull(),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
    /**
     * Whether its deliveries are written: false from the act until a deliverer fans it out. The default
     * is for a writer of the release before (a rolling deploy), which writes the deliveries with the event.
     */
    fannedOut: boolean("fanned_out").notNull().default(true),
  },
  (t) => [
    index("webhook_events_workspace_idx").on(t.workspaceId, t.createdAt),
    /** The pruner's walk, oldest first (an id's time can run ahead of `created_at`, never behind). */
    index("webhook_events_created_idx").on(t.createdAt),
    /** The deliverers' fan-out: events whose deliveries are not yet written, oldest first. */
    index("webhook_events_fan_out_idx").on(t.createdAt, t.id).where(sql`not ${t.fannedOut}`),
  ],
);
