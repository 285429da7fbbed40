import { listFleetSchedules as op } from "@fleet/contracts/fleet-schedules/list-fleet-schedules";
import { listFleetSchedules as list } from "../../services/fleet-schedules/list-fleet-schedules.ts";
import { procedure } from "../../trpc.ts";

export const listFleetSchedules = procedure(op).query(({ ctx, input }) =>
  list(ctx.services, ctx.principal.runnerId, input),
);
