import { deleteSchedule as op } from "@fleet/contracts/schedules/delete-schedule";
import { deleteSchedule as remove } from "../../services/schedules/delete-schedule.ts";
import { actorOf, procedure } from "../../trpc.ts";

export const deleteSchedule = procedure(op).mutation(({ ctx, input }) =>
  remove(ctx.services, actorOf(ctx), ctx.principal.tenantId, input),
);
