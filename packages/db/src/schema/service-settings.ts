import { bigint, pgTable, text } from "drizzle-orm/pg-core";

/** Values the service generates once and keeps, such as the session signing key when none is configured. */
export const serviceSettings = pgTable("service_settings", {
  name: text("name").primaryKey(),
  value: text("value").notNull(),
  createdAt: bigint("created_at", { mode: "number" }).notNull(),
});
