import { deleteFleetSchedule as op } from "@fleet/contracts";
import { deleteFleetSchedule as remove } from "../../services/schedules/fleet-schedules.ts";
import { runnerProcedure } from "../../trpc.ts";

export const deleteFleetSchedule = runnerProcedure(op).mutation(({ ctx, input }) =>
  remove(ctx.services, ctx.principal.runnerId, input),
);
