import { runFleetSchedule as op } from "@fleet/contracts/fleet-schedules/run-fleet-schedule";
import { runFleetSchedule as run } from "../../services/fleet-schedules/run-fleet-schedule.ts";
import { procedure } from "../../trpc.ts";

export const runFleetSchedule = procedure(op).mutation(({ ctx, input }) =>
  run(ctx.services, ctx.principal.runnerId, input),
);
