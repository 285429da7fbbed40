import { cronProblem, cronSentence, isTimeZone } from "@fleet/contracts/fleet-libraries/cron";
import { SCHEDULE_MESSAGE_LIMIT } from "@fleet/contracts/schedules/values";
import { effective, type ScheduleItem } from "./schedule-labels.ts";

export type Field = "cron" | "timezone" | "message";

export interface Values {
  cron: string;
  timezone: string;
  message: string;
  once: boolean;
}

export function problemsOf(values: Values): Partial<Record<Field, string>> {
  const cron = cronProblem(values.cron);
  return {
    ...(cron ? { cron: cronSentence(cron) } : {}),
    ...(isTimeZone(values.timezone) ? {} : { timezone: "Choose a time zone from the list." }),
    ...(values.message.trim() === ""
      ? { message: "Write the message the fleet receives on each fire." }
      : values.message.length > SCHEDULE_MESSAGE_LIMIT
        ? { message: `At most ${SCHEDULE_MESSAGE_LIMIT} characters.` }
        : {}),
  };
}

/**
 * What an edit sends: only the fields that change. On a trigger schedule the change is an override of the
 * fleet's document, so going back to the document's value clears the override's field (null).
 */
export function changesOf(schedule: ScheduleItem, values: Values): Partial<Record<Field, string | null>> {
  const now = effective(schedule);
  const changes: Partial<Record<Field, string | null>> = {};
  for (const field of ["cron", "timezone", "message"] as const) {
    const value = field === "cron" ? values.cron.trim() : values[field];
    if (schedule.source === "trigger") {
      const overridden = schedule.override?.[field] != null;
      if (value === schedule[field]) {
        if (overridden) changes[field] = null;
      } else if (value !== now[field]) changes[field] = value;
    } else if (value !== schedule[field]) changes[field] = value;
  }
  return changes;
}

export type ScheduleDialogMode = { kind: "create" } | { kind: "edit"; schedule: ScheduleItem };
