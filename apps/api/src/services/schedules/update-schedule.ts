import { Problem } from "@fleet/contracts";
import { type Actor, recordAudit } from "../shared/audit.ts";
import type { ServiceContext } from "../shared/context.ts";
import { scheduleEtag, viewOf } from "./schedule-view.ts";
import { applyChange, lockSchedule, refuseWhileSyncing, type ScheduleChange } from "./schedule-writes.ts";
import { pushSchedule } from "./sync.ts";

export async function updateSchedule(
  ctx: ServiceContext,
  actor: Actor,
  tenantId: string,
  input: ScheduleChange & { workspace_id: string; fleet_id: string; schedule_id: string; if_match?: string },
) {
  const now = ctx.now();
  await ctx.db.transaction(async (tx) => {
    const row = await lockSchedule(tx, tenantId, input);
    const etag = scheduleEtag(row);
    if (input.if_match !== undefined && input.if_match !== etag) {
      throw new Problem("UZ-SCHED-012", { detail: "The schedule changed since that etag was read.", etag });
    }
    refuseWhileSyncing(row);
    await applyChange(tx, row, input, now);
    const changed = (["cron", "message", "timezone", "status"] as const).filter(
      (f) => input[f] !== undefined,
    );
    await recordAudit(tx, {
      actor,
      at: now,
      tenantId,
      workspaceId: row.workspaceId,
      action: "schedule.update",
      target: `schedule:${row.id}`,
      details: {
        fleet_id: row.fleetId,
        changed,
        ...(input.status === undefined || input.status === null ? {} : { status: input.status }),
      },
    });
  });
  await pushSchedule(ctx, input.schedule_id);
  return viewOf(ctx, input.schedule_id);
}
