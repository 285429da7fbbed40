import { sql } from "drizzle-orm";
import { bigint, foreignKey, index, integer, pgTable, primaryKey, text, uuid } from "drizzle-orm/pg-core";
import { webhookDeliveries } from "./webhook-deliveries.ts";

/** Each try of a delivery: when, what the receiver answered (or why nothing), how long it took. */
export const webhookAttempts = pgTable(
  "webhook_attempts",
  {
    endpointId: uuid("endpoint_id").notNull(),
    eventId: uuid("event_id").notNull(),
    /** 1 for the first try. */
    attempt: integer("attempt").notNull(),
    at: bigint("at", { mode: "number" }).notNull(),
    /** The receiver's HTTP status; null when none came (timeout, connection error, address refused). */
    status: integer("status"),
    latencyMs: integer("latency_ms").notNull(),
    /** Why no status came: `timeout`, a connection error's code, or the address check's refusal. */
    error: text("error"),
    /** The first bytes of the answer's body (at most 1 KiB, as UTF-8 text). */
    responseHead: text("response_head"),
  },
  (t) => [
    primaryKey({ name: "webhook_attempts_pkey", columns: [t.endpointId, t.eventId, t.attempt] }),
    foreignKey({
      name: "webhook_attempts_delivery_fk",
      columns: [t.endpointId, t.eventId],
      foreignColumns: [webhookDeliveries.endpointId, webhookDeliveries.eventId],
    }).onDelete("cascade"),
    /** An endpoint's recent attempts: its health (24 h success rate, last failure) and its failing streak. */
    index("webhook_attempts_endpoint_at_idx").on(t.endpointId, t.at),
    /** An endpoint's latest failure (its health), found without walking its successes. */
    index("webhook_attempts_failure_idx")
      .on(t.endpointId, t.at)
      .where(sql`${t.status} is null or ${t.status} not between 200 and 299`),
  ],
);
