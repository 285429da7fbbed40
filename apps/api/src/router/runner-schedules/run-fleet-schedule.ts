import { runFleetSchedule as op } from "@fleet/contracts";
import { runFleetSchedule as run } from "../../services/schedules/fleet-schedules.ts";
import { runnerProcedure } from "../../trpc.ts";

export const runFleetSchedule = runnerProcedure(op).mutation(({ ctx, input }) =>
  run(ctx.services, ctx.principal.runnerId, input),
);
