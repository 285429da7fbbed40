import { listFleetEvents as op } from "@fleet/contracts";
import { listFleetEvents as list } from "../../services/fleets/events.ts";
import { tenantProcedure } from "../../trpc.ts";

export const listFleetEvents = tenantProcedure(op).query(({ ctx, input }) =>
  list(ctx.services.db, ctx.principal.tenantId, input, ctx.services.now()),
);
