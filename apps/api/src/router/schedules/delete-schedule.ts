import { deleteSchedule as op } from "@fleet/contracts/schedules/delete-schedule";
import { deleteSchedule as remove } from "../../services/schedules/delete-schedule.ts";
import { procedure } from "../../trpc.ts";

export const deleteSchedule = procedure(op).mutation(({ ctx, input }) =>
  remove(ctx.services, ctx.principal.tenantId, input),
);
