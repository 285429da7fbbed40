import { createFleetSchedule as op } from "@fleet/contracts";
import { createFleetSchedule as create } from "../../services/schedules/fleet-schedules.ts";
import { runnerProcedure } from "../../trpc.ts";

export const createFleetSchedule = runnerProcedure(op).mutation(({ ctx, input }) =>
  create(ctx.services, ctx.principal.runnerId, input),
);
