import { bigint, index, pgTable, primaryKey, text, uuid } from "drizzle-orm/pg-core";
import { fleets } from "./fleets.ts";

/**
 * The Idempotency-Keys of messages sent to a fleet: a key answers with the event its first request
 * stored for 24 h. A row older than that counts as absent (the next use of the key takes it over) and is
 * deleted by a later keyed message to the same fleet.
 */
export const messageIdempotencyKeys = pgTable(
  "message_idempotency_keys",
  {
    workspaceId: uuid("workspace_id").notNull(),
    fleetId: uuid("fleet_id")
      .notNull()
      .references(() => fleets.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    /** SHA-256 (hex) of the request the key first carried: the same key with another request is refused. */
    requestHash: text("request_hash").notNull(),
    eventId: uuid("event_id").notNull(),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
  },
  (t) => [
    primaryKey({ name: "message_idempotency_keys_pkey", columns: [t.workspaceId, t.fleetId, t.key] }),
    index("message_idempotency_keys_expiry_idx").on(t.fleetId, t.createdAt),
  ],
);
