import { Problem } from "@fleet/contracts";
import { count, type Database, eq, type ScheduleOverride, schedules, sql, type Tx } from "@fleet/db";
import { newId } from "../../runtime/ids.ts";
import { checkRecipe, readSchedule, type ScheduleRow } from "./schedule-view.ts";

/** Schedules one fleet may hold in all, and of those, how many the fleet itself may have created. */
export const FLEET_SCHEDULE_LIMIT = 32;
export const FLEET_CREATED_LIMIT = 16;

export interface NewSchedule {
  cron: string;
  message: string;
  timezone?: string | null;
  once: boolean;
}

/**
 * Stores a schedule under the fleet's row lock, so concurrent creates never pass the caps; the caller
 * pushes it to the scheduler once this transaction has committed.
 */
export async function insertSchedule(
  tx: Tx,
  fleet: { id: string; workspaceId: string },
  source: "api" | "fleet",
  input: NewSchedule,
  now: number,
): Promise<string> {
  const [counts] = await tx
    .select({
      all: count(),
      fleetMade: sql<number>`count(*) filter (where ${schedules.source} = 'fleet')`.mapWith(Number),
    })
    .from(schedules)
    .where(eq(schedules.fleetId, fleet.id));
  if (source === "fleet" && (counts?.fleetMade ?? 0) >= FLEET_CREATED_LIMIT) {
    throw new Problem("UZ-SCHED-009", {
      detail: `The fleet already holds ${FLEET_CREATED_LIMIT} schedules it created.`,
      current_state: "at_capacity",
    });
  }
  if ((counts?.all ?? 0) >= FLEET_SCHEDULE_LIMIT) {
    throw new Problem("UZ-SCHED-003", {
      detail: `The fleet already holds ${FLEET_SCHEDULE_LIMIT} schedules.`,
      current_state: "limit_reached",
    });
  }
  const id = newId(now);
  await tx.insert(schedules).values({
    id,
    workspaceId: fleet.workspaceId,
    fleetId: fleet.id,
    source,
    cron: input.cron.trim(),
    timezone: input.timezone ?? "UTC",
    message: input.message,
    once: input.once,
    status: "active",
    sync: "syncing",
    createdAt: now,
    updatedAt: now,
  });
  return id;
}

/** The schedule, scoped to the tenant's fleet in the workspace, locked for a change. */
export function lockSchedule(
  tx: Database | Tx,
  tenantId: string,
  input: { workspace_id: string; fleet_id: string; schedule_id: string },
): Promise<ScheduleRow> {
  return readSchedule(tx, tenantId, input, { forUpdate: true });
}

export function refuseWhileSyncing(row: ScheduleRow): void {
  if (row.sync === "syncing" || row.status === "deleting") {
    throw new Problem("UZ-SCHED-006", {
      detail:
        row.status === "deleting"
          ? "The schedule is being deleted."
          : "Another change of this schedule is being pushed to the scheduler; retry in a moment.",
      current_state: row.status === "deleting" ? "deleting" : "syncing",
    });
  }
}

export interface ScheduleChange {
  cron?: string | null;
  message?: string | null;
  timezone?: string | null;
  status?: "active" | "paused" | null;
}

/**
 * Applies a change: to the override on a trigger schedule (null clears a field back to the document),
 * to the recipe elsewhere. Bumps the generation and marks the row syncing; the caller pushes it.
 */
export async function applyChange(
  tx: Tx,
  row: ScheduleRow,
  change: ScheduleChange,
  now: number,
): Promise<void> {
  checkRecipe(change.cron, change.timezone);
  if (row.source === "trigger") {
    const current: ScheduleOverride = row.override ?? {
      cron: null,
      message: null,
      status: null,
      timezone: null,
    };
    const next: ScheduleOverride = {
      cron: change.cron === undefined ? current.cron : change.cron === null ? null : change.cron.trim(),
      message: change.message === undefined ? current.message : change.message,
      status: change.status === undefined ? current.status : change.status,
      timezone: change.timezone === undefined ? current.timezone : change.timezone,
    };
    const empty = Object.values(next).every((value) => value === null);
    await tx
      .update(schedules)
      .set({ override: empty ? null : next, sync: "syncing", generation: row.generation + 1, updatedAt: now })
      .where(eq(schedules.id, row.id));
    return;
  }
  for (const field of ["cron", "message", "status"] as const) {
    if (change[field] === null) {
      throw new Problem("UZ-REQ-001", {
        detail: `${field} cannot be null on a schedule without a trigger recipe.`,
      });
    }
  }
  await tx
    .update(schedules)
    .set({
      ...(change.cron ? { cron: change.cron.trim() } : {}),
      ...(change.message ? { message: change.message } : {}),
      ...(change.timezone !== undefined ? { timezone: change.timezone ?? "UTC" } : {}),
      ...(change.status ? { status: change.status } : {}),
      sync: "syncing",
      generation: row.generation + 1,
      updatedAt: now,
    })
    .where(eq(schedules.id, row.id));
}

/** Marks the row deleting (it never fires again), then unregisters and removes it. */
export async function markDeleting(tx: Tx, row: ScheduleRow, now: number): Promise<void> {
  await tx
    .update(schedules)
    .set({ status: "deleting", sync: "syncing", generation: row.generation + 1, updatedAt: now })
    .where(eq(schedules.id, row.id));
}
