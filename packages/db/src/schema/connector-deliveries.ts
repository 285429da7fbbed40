import { bigint, index, pgTable, primaryKey, text } from "drizzle-orm/pg-core";

/**
 * Deliveries the events ingress has accepted, by the vendor's event id (or an interaction's action id): a
 * repeated delivery finds its row and is answered `duplicate` with no effect. Rows older than a day are
 * removed by later deliveries (vendors retry for minutes, not days).
 */
export const connectorDeliveries = pgTable(
  "connector_deliveries",
  {
    provider: text("provider").notNull(),
    deliveryId: text("delivery_id").notNull(),
    receivedAt: bigint("received_at", { mode: "number" }).notNull(),
  },
  (t) => [
    primaryKey({ name: "connector_deliveries_pkey", columns: [t.provider, t.deliveryId] }),
    index("connector_deliveries_received_idx").on(t.receivedAt),
  ],
);
