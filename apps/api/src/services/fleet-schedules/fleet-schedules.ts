import { Problem } from "@fleet/contracts";
import { and, asc, eq, fleetEvents, schedules, type Tx } from "@fleet/db";
import { newId } from "../../runtime/ids.ts";
import { checkRecipe, toScheduleView } from "../schedules/schedule-view.ts";
import {
  applyChange,
  insertSchedule,
  markDeleting,
  type NewSchedule,
  refuseWhileSyncing,
  type ScheduleChange,
  scheduleNotFound,
  viewOf,
} from "../schedules/schedules.ts";
import { pushSchedule } from "../schedules/sync.ts";
import { secretMasker } from "../secrets/mask.ts";
import type { ServiceContext } from "../shared/context.ts";
import { fencedWrite } from "../shared/fence.ts";
import { eventReceived } from "../shared/frames.ts";

export async function createFleetSchedule(
  ctx: ServiceContext,
  runnerId: string,
  input: NewSchedule & { lease_id: string; fencing_token: number },
) {
  checkRecipe(input.cron, input.timezone);
  const now = ctx.now();
  const id = await fencedWrite(ctx, runnerId, input, async (tx, lease) => {
    // The fenced write holds the fleet's row lock: the caps below hold against concurrent creates.
    const message = (await secretMasker(tx, ctx.vault, lease.fleetId, lease.workspaceId))(input.message);
    return insertSchedule(
      tx,
      { id: lease.fleetId, workspaceId: lease.workspaceId },
      "fleet",
      { ...input, message },
      now,
    );
  });
  await pushSchedule(ctx, id);
  return viewOf(ctx, id);
}

export async function listFleetSchedules(
  ctx: ServiceContext,
  runnerId: string,
  input: { lease_id: string; fencing_token: number },
) {
  const lease = await fencedWrite(ctx, runnerId, input, async (_tx, held) => held);
  const rows = await ctx.db
    .select()
    .from(schedules)
    .where(eq(schedules.fleetId, lease.fleetId))
    .orderBy(asc(schedules.createdAt), asc(schedules.id));
  const now = ctx.now();
  return { items: rows.map((row) => toScheduleView(row, ctx.scheduler, now)) };
}

/** The fleet's schedule, for a fenced change; only schedules the fleet created may be changed by it. */
async function fleetOwned(tx: Tx, fleetId: string, scheduleId: string, mustBeFleets: boolean) {
  const [row] = await tx
    .select()
    .from(schedules)
    .where(and(eq(schedules.id, scheduleId), eq(schedules.fleetId, fleetId)))
    .for("update");
  if (row === undefined) throw scheduleNotFound(scheduleId);
  if (mustBeFleets && row.source !== "fleet") {
    throw new Problem("UZ-SCHED-010", {
      detail: `The schedule's source is ${row.source}; a fleet can change only schedules it created.`,
    });
  }
  return row;
}

export async function updateFleetSchedule(
  ctx: ServiceContext,
  runnerId: string,
  input: ScheduleChange & { lease_id: string; schedule_id: string; fencing_token: number },
) {
  const now = ctx.now();
  await fencedWrite(ctx, runnerId, input, async (tx, lease) => {
    const row = await fleetOwned(tx, lease.fleetId, input.schedule_id, true);
    refuseWhileSyncing(row);
    const message =
      input.message == null
        ? input.message
        : (await secretMasker(tx, ctx.vault, lease.fleetId, lease.workspaceId))(input.message);
    await applyChange(tx, row, { ...input, message }, now);
  });
  await pushSchedule(ctx, input.schedule_id);
  return viewOf(ctx, input.schedule_id);
}

export async function deleteFleetSchedule(
  ctx: ServiceContext,
  runnerId: string,
  input: { lease_id: string; schedule_id: string; fencing_token: number },
): Promise<void> {
  const now = ctx.now();
  await fencedWrite(ctx, runnerId, input, async (tx, lease) => {
    const row = await fleetOwned(tx, lease.fleetId, input.schedule_id, true);
    if (row.status !== "deleting") await markDeleting(tx, row, now);
  });
  await pushSchedule(ctx, input.schedule_id);
}

/** Stores a cron event for the schedule now, as a fire would. */
export async function runFleetSchedule(
  ctx: ServiceContext,
  runnerId: string,
  input: { lease_id: string; schedule_id: string; fencing_token: number },
) {
  const now = ctx.now();
  const event = await fencedWrite(ctx, runnerId, input, async (tx, lease) => {
    const row = await fleetOwned(tx, lease.fleetId, input.schedule_id, false);
    const id = newId(now);
    await tx.insert(fleetEvents).values({
      id,
      workspaceId: row.workspaceId,
      fleetId: row.fleetId,
      actor: `cron:${row.id}`,
      eventType: "cron",
      requestJson: JSON.stringify({ message: row.override?.message ?? row.message, schedule_id: row.id }),
      status: "received",
      createdAt: now,
      updatedAt: now,
    });
    return {
      workspaceId: row.workspaceId,
      fleetId: row.fleetId,
      eventId: id,
      eventType: "cron" as const,
      actor: `cron:${row.id}`,
      message: row.override?.message ?? row.message,
    };
  });
  ctx.tracing?.eventReceived(event.eventId, "cron");
  ctx.work.announce();
  eventReceived(ctx, event);
  return { status: "accepted" as const, event_id: event.eventId };
}
