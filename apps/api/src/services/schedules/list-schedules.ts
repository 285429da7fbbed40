import { asc, eq, schedules } from "@fleet/db";
import type { ServiceContext } from "../shared/context.ts";
import { requireFleet } from "../shared/tenancy.ts";
import { toScheduleView } from "./schedule-view.ts";

export async function listSchedules(
  ctx: ServiceContext,
  tenantId: string,
  workspaceId: string,
  fleetId: string,
) {
  await requireFleet(ctx.db, tenantId, workspaceId, fleetId);
  const rows = await ctx.db
    .select()
    .from(schedules)
    .where(eq(schedules.fleetId, fleetId))
    .orderBy(asc(schedules.createdAt), asc(schedules.id));
  const now = ctx.now();
  return { items: rows.map((row) => toScheduleView(row, ctx.scheduler, now)) };
}
