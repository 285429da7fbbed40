import { getSchedule as op } from "@fleet/contracts";
import { getSchedule as get } from "../../services/schedules/schedules.ts";
import { tenantProcedure } from "../../trpc.ts";

export const getSchedule = tenantProcedure(op).query(async ({ ctx, input }) => {
  const schedule = await get(ctx.services, ctx.principal.tenantId, input);
  ctx.response.headers = { etag: schedule.etag };
  return schedule;
});
