import type { ServiceContext } from "../shared/context.ts";
import { lockSchedule, markDeleting } from "./schedule-writes.ts";
import { pushSchedule } from "./sync.ts";

export async function deleteSchedule(
  ctx: ServiceContext,
  tenantId: string,
  input: { workspace_id: string; fleet_id: string; schedule_id: string },
): Promise<void> {
  const now = ctx.now();
  await ctx.db.transaction(async (tx) => {
    const row = await lockSchedule(tx, tenantId, input);
    if (row.status === "deleting") return;
    await markDeleting(tx, row, now);
  });
  await pushSchedule(ctx, input.schedule_id);
}
