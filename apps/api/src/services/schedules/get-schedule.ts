import type { ServiceContext } from "../shared/context.ts";
import { readSchedule, toScheduleView } from "./schedule-view.ts";

export async function getSchedule(
  ctx: ServiceContext,
  tenantId: string,
  input: { workspace_id: string; fleet_id: string; schedule_id: string },
) {
  const row = await readSchedule(ctx.db, tenantId, input);
  return toScheduleView(row, ctx.scheduler, ctx.now());
}
