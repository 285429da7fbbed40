import { sql } from "drizzle-orm";
import { bigint, check, index, integer, pgTable, primaryKey, text, uuid } from "drizzle-orm/pg-core";

/**
 * One event to one endpoint, written when a deliverer fans the event out (`fan-out.ts`), a moment after the
 * act that wrote the event; a ping's and a replay's are written by their own request. `pending` until a
 * 2xx (`succeeded`) or its attempts are spent (`failed`). Workers claim due rows with `for update skip
 * locked` and push `next_attempt_at` past the claim, so a killed worker's claim is taken over when it
 * lapses.
 *
 * No foreign keys: a delivery is only ever written by a statement that read its event and its endpoint,
 * and a key's check on every row (a lock on the endpoint's row, shared by every act of the workspace) was
 * a third of the outbox's cost to the act when the act wrote them. Deleting an endpoint or an event deletes
 * its deliveries by trigger, once a statement (migration `0045_webhook_outbox_keys`).
 */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    endpointId: uuid("endpoint_id").notNull(),
    eventId: uuid("event_id").notNull(),
    /** The event's resource, copied: an earlier pending delivery of it to the endpoint goes first. */
    resource: text("resource").notNull(),
    type: text("type").notNull(),
    status: text("status").notNull(),
    attempts: integer("attempts").notNull(),
    nextAttemptAt: bigint("next_attempt_at", { mode: "number" }).notNull(),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
    updatedAt: bigint("updated_at", { mode: "number" }).notNull(),
  },
  (t) => [
    primaryKey({ name: "webhook_deliveries_pkey", columns: [t.endpointId, t.eventId] }),
    /** The workers' work: pending rows, soonest first. */
    index("webhook_deliveries_due_idx").on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
    /** Whether an earlier delivery of the same resource to the endpoint is still pending. */
    index("webhook_deliveries_order_idx")
      .on(t.endpointId, t.resource, t.eventId)
      .where(sql`${t.status} = 'pending'`),
    /** An endpoint's deliveries, newest first (its delivery log), keyset-paged over (created_at, event_id). */
    index("webhook_deliveries_endpoint_idx").on(t.endpointId, t.createdAt, t.eventId),
    /** An event's deliveries: the pruner's check for one still pending, and the trigger when it goes. */
    index("webhook_deliveries_event_idx").on(t.eventId),
    check("webhook_deliveries_status", sql`${t.status} in ('pending', 'succeeded', 'failed')`),
  ],
);
