import { listSchedules as op } from "@fleet/contracts";
import { listSchedules as list } from "../../services/schedules/schedules.ts";
import { tenantProcedure } from "../../trpc.ts";

export const listSchedules = tenantProcedure(op).query(({ ctx, input }) =>
  list(ctx.services, ctx.principal.tenantId, input.workspace_id, input.fleet_id),
);
