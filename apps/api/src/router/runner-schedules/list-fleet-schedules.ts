import { listFleetSchedules as op } from "@fleet/contracts";
import { listFleetSchedules as list } from "../../services/schedules/fleet-schedules.ts";
import { runnerProcedure } from "../../trpc.ts";

export const listFleetSchedules = runnerProcedure(op).query(({ ctx, input }) =>
  list(ctx.services, ctx.principal.runnerId, input),
);
