import { getSchedule as op } from "@fleet/contracts/schedules/get-schedule";
import { getSchedule as get } from "../../services/schedules/get-schedule.ts";
import { procedure } from "../../trpc.ts";

export const getSchedule = procedure(op).query(async ({ ctx, input }) => {
  const schedule = await get(ctx.services, ctx.principal.tenantId, input);
  ctx.response.headers = { etag: schedule.etag };
  return schedule;
});
