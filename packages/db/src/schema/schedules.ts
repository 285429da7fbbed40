import { sql } from "drizzle-orm";
import { bigint, boolean, check, index, integer, jsonb, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { fleets } from "./fleets.ts";

/** A person's overlay on a trigger schedule; null fields inherit the fleet's document. */
export interface ScheduleOverride {
  cron: string | null;
  message: string | null;
  status: "active" | "paused" | null;
  timezone: string | null;
}

/**
 * Schedules that wake a fleet. The row is ours; the external scheduler holds a mirror that `sync`
 * tracks, and `generation` orders pushes so a late answer for an older version cannot win.
 */
export const schedules = pgTable(
  "schedules",
  {
    id: uuid("id").primaryKey(),
    workspaceId: uuid("workspace_id").notNull(),
    fleetId: uuid("fleet_id")
      .notNull()
      .references(() => fleets.id, { onDelete: "cascade" }),
    /** `api` (a person), `trigger` (the fleet's document), `fleet` (the fleet while it ran). */
    source: text("source").notNull(),
    cron: text("cron").notNull(),
    timezone: text("timezone").notNull(),
    message: text("message").notNull(),
    once: boolean("once").notNull().default(false),
    status: text("status").notNull(),
    sync: text("sync").notNull(),
    lastError: text("last_error"),
    generation: integer("generation").notNull().default(1),
    override: jsonb("override").$type<ScheduleOverride>(),
    /** For `trigger` schedules: which trigger of the fleet's document it came from. */
    triggerIndex: integer("trigger_index"),
    /** The cron instant this schedule last fired for: a redelivered fire of it is dropped. */
    lastFiredAt: bigint("last_fired_at", { mode: "number" }),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
    updatedAt: bigint("updated_at", { mode: "number" }).notNull(),
  },
  (t) => [
    index("schedules_fleet_page_idx").on(t.fleetId, t.createdAt, t.id),
    /** A workspace's schedules the scheduler has not taken: the overview's "sync failed". */
    index("schedules_workspace_sync_failed_idx")
      .on(t.workspaceId, t.updatedAt, t.id)
      .where(sql`${t.sync} = 'failed'`),
    check("schedules_source", sql`${t.source} in ('api', 'trigger', 'fleet')`),
    check("schedules_status", sql`${t.status} in ('active', 'paused', 'deleting')`),
    check("schedules_sync", sql`${t.sync} in ('syncing', 'synced', 'failed')`),
    check("schedules_override", sql`${t.override} is null or ${t.source} = 'trigger'`),
  ],
);
