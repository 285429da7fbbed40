import { deleteFleetSchedule as op } from "@fleet/contracts/fleet-schedules/delete-fleet-schedule";
import { deleteFleetSchedule as remove } from "../../services/fleet-schedules/delete-fleet-schedule.ts";
import { procedure } from "../../trpc.ts";

export const deleteFleetSchedule = procedure(op).mutation(({ ctx, input }) =>
  remove(ctx.services, ctx.principal.runnerId, input),
);
