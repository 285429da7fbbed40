import { Problem } from "@fleet/contracts";
import { and, count, eq, type LibraryTrigger, ne, schedules, type Tx } from "@fleet/db";
import { newId } from "../../runtime/ids.ts";
import { FLEET_SCHEDULE_LIMIT, markDeleting } from "./schedule-writes.ts";

function same(a: LibraryTrigger, b: LibraryTrigger): boolean {
  return a.cron === b.cron && a.timezone === b.timezone && a.message === b.message;
}

/**
 * Pairs each old trigger with the new one it became: unchanged ones by content (in place first, then
 * moved), then edited ones by what they kept (the message, else the timing). `pairs[old] = new`, or
 * undefined for a trigger that is gone.
 */
function pairTriggers(before: LibraryTrigger[], after: LibraryTrigger[]): (number | undefined)[] {
  const pairs: (number | undefined)[] = before.map(() => undefined);
  const taken = new Set<number>();
  const pass = (match: (a: LibraryTrigger, b: LibraryTrigger, from: number, to: number) => boolean) => {
    before.forEach((trigger, from) => {
      if (pairs[from] !== undefined) return;
      const to = after.findIndex(
        (candidate, index) => !taken.has(index) && match(trigger, candidate, from, index),
      );
      if (to < 0) return;
      pairs[from] = to;
      taken.add(to);
    });
  };
  pass((a, b, from, to) => from === to && same(a, b));
  pass(same);
  pass((a, b) => a.message === b.message);
  pass((a, b) => a.cron === b.cron && a.timezone === b.timezone);
  return pairs;
}

/** The stored schedule of a fleet's trigger (its document's `triggers[index]`), waiting to be registered. */
export function triggerScheduleRow(
  fleet: { id: string; workspaceId: string },
  trigger: LibraryTrigger,
  index: number,
  now: number,
) {
  return {
    id: newId(now),
    workspaceId: fleet.workspaceId,
    fleetId: fleet.id,
    source: "trigger" as const,
    cron: trigger.cron,
    timezone: trigger.timezone,
    message: trigger.message,
    status: "active" as const,
    sync: "syncing" as const,
    triggerIndex: index,
    createdAt: now,
    updatedAt: now,
  };
}

/**
 * Brings a fleet's `trigger` schedules in line with its new trigger list, under the fleet's row lock:
 * a new trigger gets a schedule, a gone one's schedule is removed, a changed one's schedule takes the new
 * recipe and keeps a person's override. An unchanged trigger whose schedule a person deleted stays
 * without one. Answers the schedules to push once the transaction has committed.
 */
export async function reconcileTriggerSchedules(
  tx: Tx,
  fleet: { id: string; workspaceId: string },
  before: LibraryTrigger[],
  after: LibraryTrigger[],
  now: number,
): Promise<string[]> {
  const rows = await tx
    .select()
    .from(schedules)
    .where(
      and(eq(schedules.fleetId, fleet.id), eq(schedules.source, "trigger"), ne(schedules.status, "deleting")),
    );
  const pairs = pairTriggers(before, after);
  const kept = new Set<number>();
  const changed: string[] = [];
  const removed = rows.filter((row) => {
    const to = row.triggerIndex === null ? undefined : pairs[row.triggerIndex];
    if (to === undefined || kept.has(to)) return true;
    kept.add(to);
    return false;
  });
  const added = after.flatMap((trigger, index) => {
    const paired = pairs.includes(index);
    // A changed trigger whose schedule is gone is the author's new intent: it gets one again.
    const changedWithoutRow = paired && !kept.has(index) && !same(before[pairs.indexOf(index)]!, trigger);
    return !paired || changedWithoutRow ? [{ trigger, index }] : [];
  });
  const [held] = await tx
    .select({ n: count() })
    .from(schedules)
    .where(and(eq(schedules.fleetId, fleet.id), ne(schedules.status, "deleting")));
  if ((held?.n ?? 0) - removed.length + added.length > FLEET_SCHEDULE_LIMIT) {
    throw new Problem("UZ-SCHED-003", {
      detail: `With these triggers the fleet would hold more than ${FLEET_SCHEDULE_LIMIT} schedules.`,
      current_state: "limit_reached",
    });
  }
  for (const row of rows) {
    if (removed.includes(row)) continue;
    const index = pairs[row.triggerIndex!]!;
    const trigger = after[index]!;
    if (row.cron === trigger.cron && row.timezone === trigger.timezone && row.message === trigger.message) {
      if (row.triggerIndex !== index)
        await tx.update(schedules).set({ triggerIndex: index }).where(eq(schedules.id, row.id));
      continue;
    }
    await tx
      .update(schedules)
      .set({
        cron: trigger.cron,
        timezone: trigger.timezone,
        message: trigger.message,
        triggerIndex: index,
        sync: "syncing",
        generation: row.generation + 1,
        updatedAt: now,
      })
      .where(eq(schedules.id, row.id));
    changed.push(row.id);
  }
  for (const row of removed) {
    await markDeleting(tx, row, now);
    changed.push(row.id);
  }
  for (const { trigger, index } of added) {
    const row = triggerScheduleRow(fleet, trigger, index, now);
    await tx.insert(schedules).values(row);
    changed.push(row.id);
  }
  return changed;
}
