import { updateSchedule as op } from "@fleet/contracts";
import { updateSchedule as update } from "../../services/schedules/schedules.ts";
import { tenantProcedure } from "../../trpc.ts";

export const updateSchedule = tenantProcedure(op).mutation(async ({ ctx, input }) => {
  const schedule = await update(ctx.services, ctx.principal.tenantId, input);
  ctx.response.headers = { etag: schedule.etag };
  return schedule;
});
