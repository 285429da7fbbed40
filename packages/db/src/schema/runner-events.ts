import { sql } from "drizzle-orm";
import { bigint, check, index, jsonb, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { runners } from "./runners.ts";

/** What happened to a runner, for its operator history. */
export const runnerEvents = pgTable(
  "runner_events",
  {
    id: uuid("id").primaryKey(),
    runnerId: uuid("runner_id")
      .notNull()
      .references(() => runners.id, { onDelete: "cascade" }),
    eventType: text("event_type").notNull(),
    detail: jsonb("detail").$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
  },
  (t) => [
    index("runner_events_page_idx").on(t.runnerId, t.createdAt, t.id),
    check(
      "runner_events_type",
      sql`${t.eventType} in ('runner_registered', 'runner_online', 'runner_offline', 'lease_acquired', 'lease_released', 'runner_cordoned', 'runner_draining', 'runner_drained', 'runner_revoked', 'runner_policy_assigned')`,
    ),
  ],
);
