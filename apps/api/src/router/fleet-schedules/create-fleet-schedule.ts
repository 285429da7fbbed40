import { createFleetSchedule as op } from "@fleet/contracts/fleet-schedules/create-fleet-schedule";
import { createFleetSchedule as create } from "../../services/fleet-schedules/create-fleet-schedule.ts";
import { procedure } from "../../trpc.ts";

export const createFleetSchedule = procedure(op).mutation(({ ctx, input }) =>
  create(ctx.services, ctx.principal.runnerId, input),
);
