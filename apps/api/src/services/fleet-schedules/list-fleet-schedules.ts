import { asc, eq, schedules } from "@fleet/db";
import { toScheduleView } from "../schedules/schedule-view.ts";
import type { ServiceContext } from "../shared/context.ts";
import { fencedWrite } from "../shared/fence.ts";

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
