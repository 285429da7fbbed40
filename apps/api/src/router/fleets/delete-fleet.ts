import { deleteFleet as op } from "@fleet/contracts";
import { deleteFleet as remove } from "../../services/fleets/fleets.ts";
import { tenantProcedure } from "../../trpc.ts";

export const deleteFleet = tenantProcedure(op).mutation(({ ctx, input }) =>
  remove(ctx.services.db, ctx.principal.tenantId, input.workspace_id, input.fleet_id),
);
