import { z } from "zod";
import { epochMs, uuidv7 } from "../common.ts";
import { fleetParams } from "../fleets/fleet.ts";
import { SCHEDULE_MESSAGE_LIMIT } from "./values.ts";

export { SCHEDULE_MESSAGE_LIMIT } from "./values.ts";

export const scheduleSources = ["api", "trigger", "fleet"] as const;
export const scheduleStatuses = ["active", "paused", "deleting"] as const;
export const scheduleSyncStates = ["syncing", "synced", "failed"] as const;

/** Cron and timezone are checked by the service (400 UZ-SCHED-001 naming the field); here only their size. */
export const cronText = z.string({ error: "cron must be a string" }).max(200, { error: "cron is too long" });
export const timezoneText = z
  .string({ error: "timezone must be a string" })
  .max(64, { error: "timezone is too long" });
export const scheduleMessage = z
  .string({ error: "message must be a string" })
  .min(1, { error: "message must not be empty" })
  .max(SCHEDULE_MESSAGE_LIMIT, { error: `message must be at most ${SCHEDULE_MESSAGE_LIMIT} characters` });

/** The overlay a person puts on a trigger schedule; null fields inherit the fleet's document. */
export const scheduleOverride = z
  .object({
    cron: z.string().nullable(),
    message: z.string().nullable(),
    status: z.enum(["active", "paused"]).nullable(),
    timezone: z.string().nullable(),
  })
  .meta({ id: "ScheduleOverride" });

export const scheduleView = z
  .object({
    schedule_id: z.string(),
    fleet_id: z.string(),
    /** The pinned recipe: the trigger document's for `trigger` schedules, whatever `override` says. */
    cron: z.string(),
    timezone: z.string(),
    message: z.string(),
    source: z.enum(scheduleSources),
    once: z.boolean(),
    /** The intent in force (an override's status wins over the recipe's). */
    status: z.enum(scheduleStatuses),
    sync: z.enum(scheduleSyncStates),
    etag: z.string(),
    created_at: epochMs,
    updated_at: epochMs,
    last_error: z.string().nullable().optional(),
    override: scheduleOverride.nullable().optional(),
    /** The next fire of the effective recipe, from the engine that fires it; null when paused. */
    next_fire_at: epochMs.nullable(),
  })
  .meta({ id: "Schedule" });

export const scheduleParams = { ...fleetParams, schedule_id: uuidv7("schedule_id") };
