import { and, eq, fleets, schedules } from "@fleet/db";
import type { ServiceContext } from "../shared/context.ts";
import { recordWebhookEvent } from "../webhook-endpoints/outbox.ts";
import { toScheduleView } from "./schedule-view.ts";

/** What a row the reconciler found drifted says until its re-push answers. */
export const SCHEDULE_DRIFTED = "the scheduler's copy drifted; re-registering";

/**
 * Records that a push of the schedule (at `generation`) did not bring the scheduler in line, and, when the
 * row was in line or still syncing until then, sends `schedule.sync_failed` in the same transaction: a row
 * already failed that fails again (the reconciler's retries) sends nothing more, while the next failure
 * after it synced, or of a newer version, does. The reconciler's own mark of a drifted row (`tell: false`)
 * sends nothing, since it re-pushes at once; only that re-push failing does. A row at another generation
 * is left alone. Its data is the schedule as its read shows it, `sync: failed` and `last_error` included.
 */
export async function markSyncFailed(
  ctx: ServiceContext,
  scheduleId: string,
  generation: number,
  lastError: string,
  { tell = true }: { tell?: boolean } = {},
): Promise<void> {
  const now = ctx.now();
  const sameGeneration = and(eq(schedules.id, scheduleId), eq(schedules.generation, generation));
  const told = await ctx.db.transaction(async (tx) => {
    const [current] = await tx
      .select({ sync: schedules.sync, lastError: schedules.lastError, tenantId: fleets.tenantId })
      .from(schedules)
      .innerJoin(fleets, eq(fleets.id, schedules.fleetId))
      .where(sameGeneration)
      .for("update", { of: schedules });
    if (current === undefined) return false;
    const [row] = await tx
      .update(schedules)
      .set({ sync: "failed", lastError })
      .where(sameGeneration)
      .returning();
    if (!tell || (current.sync === "failed" && current.lastError !== SCHEDULE_DRIFTED)) return false;
    return recordWebhookEvent(
      tx,
      {
        tenantId: current.tenantId,
        workspaceId: row!.workspaceId,
        fleetId: row!.fleetId,
        type: "schedule.sync_failed",
        resource: `schedule:${row!.id}`,
        readPath: `/v1/workspaces/${row!.workspaceId}/fleets/${row!.fleetId}/schedules/${row!.id}`,
        at: now,
      },
      () => toScheduleView(row!, ctx.scheduler, now),
    );
  });
  if (told) ctx.webhookOutbox?.kick();
}
