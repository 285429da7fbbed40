import { sql } from "drizzle-orm";
import { bigint, index, jsonb, pgTable, uuid } from "drizzle-orm/pg-core";
import { runnerEventType } from "./domains.ts";
import { runners } from "./runners.ts";

/** What happened to a runner, for its operator history. */
export const runnerEvents = pgTable(
  "runner_events",
  {
    id: uuid("id").primaryKey(),
    runnerId: uuid("runner_id")
      .notNull()
      .references(() => runners.id, { onDelete: "cascade" }),
    eventType: runnerEventType("event_type").notNull(),
    detail: jsonb("detail").$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
  },
  (t) => [index("runner_events_page_idx").on(t.runnerId, t.createdAt, t.id)],
);
