import { updateFleetSchedule as op } from "@fleet/contracts/fleet-schedules/update-fleet-schedule";
import { updateFleetSchedule as update } from "../../services/fleet-schedules/update-fleet-schedule.ts";
import { procedure } from "../../trpc.ts";

export const updateFleetSchedule = procedure(op).mutation(({ ctx, input }) =>
  update(ctx.services, ctx.principal.runnerId, input),
);
