import { updateSchedule as op } from "@fleet/contracts/schedules/update-schedule";
import { updateSchedule as update } from "../../services/schedules/update-schedule.ts";
import { actorOf, procedure } from "../../trpc.ts";

export const updateSchedule = procedure(op).mutation(async ({ ctx, input }) => {
  const schedule = await update(ctx.services, actorOf(ctx), ctx.principal.tenantId, input);
  ctx.response.headers = { etag: schedule.etag };
  return schedule;
});
