import { listSchedules as op } from "@fleet/contracts/schedules/list-schedules";
import { listSchedules as list } from "../../services/schedules/list-schedules.ts";
import { procedure } from "../../trpc.ts";

export const listSchedules = procedure(op).query(({ ctx, input }) =>
  list(ctx.services, ctx.principal.tenantId, input.workspace_id, input.fleet_id),
);
