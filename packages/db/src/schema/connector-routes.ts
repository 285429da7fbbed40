import { bigint, pgTable, primaryKey, text, uuid } from "drizzle-orm/pg-core";
import { connectors } from "./connectors.ts";
import { fleets } from "./fleets.ts";

/**
 * Event routing of a workspace's chat connector: a message to the app in `channel_id` becomes a `chat`
 * event of `fleet_id`. One fleet per channel; a fleet may answer in several channels. Deleted with the
 * connector (disconnect) or the fleet.
 */
export const connectorRoutes = pgTable(
  "connector_routes",
  {
    connectorId: uuid("connector_id")
      .notNull()
      .references(() => connectors.id, { onDelete: "cascade" }),
    channelId: text("channel_id").notNull(),
    fleetId: uuid("fleet_id")
      .notNull()
      .references(() => fleets.id, { onDelete: "cascade" }),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ name: "connector_routes_pkey", columns: [t.connectorId, t.channelId] })],
);
