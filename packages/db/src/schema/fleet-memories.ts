import { sql } from "drizzle-orm";
import { bigint, index, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { fleets } from "./fleets.ts";

/** What a fleet remembers between runs, one row per key; runners write them under a lease. */
export const fleetMemories = pgTable(
  "fleet_memories",
  {
    id: uuid("id").primaryKey(),
    fleetId: uuid("fleet_id")
      .notNull()
      .references(() => fleets.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    category: text("category").notNull(),
    content: text("content").notNull(),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
    updatedAt: bigint("updated_at", { mode: "number" }).notNull(),
  },
  (t) => [
    uniqueIndex("fleet_memories_fleet_key").on(t.fleetId, t.key),
    index("fleet_memories_fleet_page_idx").on(t.fleetId, t.createdAt, t.id),
    index("fleet_memories_fleet_category_idx").on(t.fleetId, t.category, t.createdAt, t.id),
    /** Full-text search over key and content; queries must use this exact expression. */
    index("fleet_memories_search_idx").using(
      "gin",
      sql`to_tsvector('simple', ${t.key} || ' ' || ${t.content})`,
    ),
  ],
);
