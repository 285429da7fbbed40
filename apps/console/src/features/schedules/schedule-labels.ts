import type { scheduleSources, scheduleStatuses, scheduleSyncStates } from "@fleet/contracts";
import type { StatusVariant } from "@fleet/ui";
import { statusOf } from "../../lib/problem.ts";
import type { ApiError, RouterOutputs } from "../../lib/trpc.ts";

export type ScheduleItem = RouterOutputs["schedules"]["list"]["items"][number];
export type ScheduleStatus = (typeof scheduleStatuses)[number];
export type ScheduleSync = (typeof scheduleSyncStates)[number];
export type ScheduleSource = (typeof scheduleSources)[number];

export const scheduleStatusVariants: Record<ScheduleStatus, StatusVariant> = {
  active: { label: "Active", tone: "success" },
  paused: { label: "Paused", tone: "warning" },
  deleting: { label: "Deleting", tone: "neutral" },
};

/** Whether the scheduler holds the schedule as stored: the pill beside the status. */
export const syncVariants: Record<ScheduleSync, StatusVariant> = {
  synced: { label: "Synced", tone: "success" },
  syncing: { label: "Syncing", tone: "info" },
  failed: { label: "Sync failed", tone: "danger" },
};

export const sourceLabels: Record<ScheduleSource, string> = {
  api: "Created by a person",
  trigger: "From the fleet's document",
  fleet: "Created by the fleet",
};

type Field = "cron" | "timezone" | "message";

/**
 * The recipe in force: on a trigger schedule the override's fields where set, the document's elsewhere.
 * The view's `status` is already the one in force.
 */
export function effective(schedule: ScheduleItem): Record<Field, string> {
  const override = schedule.override;
  return {
    cron: override?.cron ?? schedule.cron,
    timezone: override?.timezone ?? schedule.timezone,
    message: override?.message ?? schedule.message,
  };
}

const fieldNames = { cron: "cron", timezone: "time zone", message: "message", status: "status" } as const;

/** The override's set fields, in words with their values ("cron 0 10 * * *", "status paused"). */
export function overrideParts(schedule: ScheduleItem): { field: string; value: string }[] {
  const override = schedule.override;
  if (!override) return [];
  return (["cron", "timezone", "message", "status"] as const)
    .filter((field) => override[field] !== null)
    .map((field) => ({ field: fieldNames[field], value: String(override[field]) }));
}

/**
 * What to say beside a refused change of a schedule: a stale version (412) or a push under way (409
 * UZ-SCHED-006) both mean "look again, then retry", not "you did something wrong".
 */
export function conflictHint(error: ApiError): string | null {
  const status = statusOf(error);
  if (status === 412) {
    return "The schedule changed since this page read it. It now shows the current version: check it, then make your change again.";
  }
  if (status === 409 && error.data?.problem?.error_code === "UZ-SCHED-006") {
    return "The schedule is being synced to the scheduler right now. Try again in a moment.";
  }
  return null;
}

/** "in 4 min", "in 2 h 5 min", "in 3 days": how long until a fire. */
export function until(epochMs: number, now: number): string {
  const minutes = Math.round((epochMs - now) / 60_000);
  if (minutes <= 0) return "due now";
  if (minutes < 60) return `in ${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return minutes % 60 === 0 ? `in ${hours} h` : `in ${hours} h ${minutes % 60} min`;
  return `in ${Math.round(hours / 24)} days`;
}
