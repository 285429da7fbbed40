import { cronProblem, cronSentence, isTimeZone, Problem } from "@fleet/contracts";
import { and, type Database, eq, schedules, type Tx } from "@fleet/db";
import type { ScheduleEngine } from "../../runtime/schedule-engine.ts";
import type { ServiceContext } from "../shared/context.ts";
import { strongTag } from "../shared/tags.ts";
import { requireFleet } from "../shared/tenancy.ts";

export type ScheduleRow = typeof schedules.$inferSelect;

/** The recipe in force: the override's fields where set, the pinned recipe's elsewhere. */
export function effective(row: ScheduleRow) {
  const override = row.override;
  return {
    cron: override?.cron ?? row.cron,
    timezone: override?.timezone ?? row.timezone,
    message: override?.message ?? row.message,
    status: row.status === "deleting" ? "deleting" : (override?.status ?? row.status),
  } as const;
}

/** A strong tag over the pinned recipe, the override and the intent. */
export function scheduleEtag(row: ScheduleRow): string {
  return strongTag(row.id, row.cron, row.timezone, row.message, row.once, row.status, row.override);
}

export function toScheduleView(row: ScheduleRow, engine: ScheduleEngine | null, now: number) {
  const running = effective(row);
  return {
    schedule_id: row.id,
    fleet_id: row.fleetId,
    cron: row.cron,
    timezone: row.timezone,
    message: row.message,
    source: row.source as "api" | "trigger" | "fleet",
    once: row.once,
    status: running.status as "active" | "paused" | "deleting",
    sync: row.sync as "syncing" | "synced" | "failed",
    etag: scheduleEtag(row),
    created_at: row.createdAt,
    updated_at: row.updatedAt,
    last_error: row.lastError,
    ...(row.override === null ? {} : { override: row.override }),
    next_fire_at:
      running.status === "active" && engine !== null
        ? engine.nextFire(running.cron, running.timezone, new Date(now))
        : null,
  };
}

/** Refuses a cron or timezone the scheduler could not fire, naming the field. */
export function checkRecipe(cron: string | null | undefined, timezone: string | null | undefined): void {
  if (cron !== undefined && cron !== null) {
    const problem = cronProblem(cron);
    if (problem !== null) {
      throw new Problem("UZ-SCHED-001", { detail: cronSentence(problem) });
    }
  }
  if (timezone !== undefined && timezone !== null && !isTimeZone(timezone)) {
    throw new Problem("UZ-SCHED-001", { detail: `timezone ${timezone} is not an IANA time zone.` });
  }
}

export function scheduleNotFound(id: string): Problem {
  return new Problem("UZ-SCHED-002", { detail: `No schedule ${id} for this fleet.` });
}

export async function viewOf(ctx: ServiceContext, id: string) {
  const [row] = await ctx.db.select().from(schedules).where(eq(schedules.id, id));
  if (row === undefined) throw scheduleNotFound(id);
  return toScheduleView(row, ctx.scheduler, ctx.now());
}

/** The schedule, scoped to the tenant's fleet in the workspace: 404 when either is not there. */
export async function readSchedule(
  db: Database | Tx,
  tenantId: string,
  input: { workspace_id: string; fleet_id: string; schedule_id: string },
  { forUpdate = false }: { forUpdate?: boolean } = {},
): Promise<ScheduleRow> {
  await requireFleet(db, tenantId, input.workspace_id, input.fleet_id);
  const query = db
    .select()
    .from(schedules)
    .where(and(eq(schedules.id, input.schedule_id), eq(schedules.fleetId, input.fleet_id)));
  const [row] = forUpdate ? await query.for("update") : await query;
  if (row === undefined) throw scheduleNotFound(input.schedule_id);
  return row;
}
