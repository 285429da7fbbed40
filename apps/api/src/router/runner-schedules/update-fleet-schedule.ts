import { updateFleetSchedule as op } from "@fleet/contracts";
import { updateFleetSchedule as update } from "../../services/schedules/fleet-schedules.ts";
import { runnerProcedure } from "../../trpc.ts";

export const updateFleetSchedule = runnerProcedure(op).mutation(({ ctx, input }) =>
  update(ctx.services, ctx.principal.runnerId, input),
);
