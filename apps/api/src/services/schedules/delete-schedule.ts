import { type Actor, recordAudit } from "../shared/audit.ts";
import type { ServiceContext } from "../shared/context.ts";
import { lockSchedule, markDeleting } from "./schedule-writes.ts";
import { pushSchedule } from "./sync.ts";

export async function deleteSchedule(
  ctx: ServiceContext,
  actor: Actor,
  tenantId: string,
  input: { workspace_id: string; fleet_id: string; schedule_id: string },
): Promise<void> {
  const now = ctx.now();
  await ctx.db.transaction(async (tx) => {
    const row = await lockSchedule(tx, tenantId, input);
    if (row.status === "deleting") return;
    await markDeleting(tx, row, now);
    await recordAudit(tx, {
      actor,
      at: now,
      tenantId,
      workspaceId: row.workspaceId,
      action: "schedule.delete",
      target: `schedule:${row.id}`,
      details: { fleet_id: row.fleetId, cron: row.cron },
    });
  });
  await pushSchedule(ctx, input.schedule_id);
}
