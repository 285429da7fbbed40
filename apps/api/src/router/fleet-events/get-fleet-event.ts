import { getFleetEvent as op } from "@fleet/contracts";
import { getFleetEvent as get } from "../../services/fleets/events.ts";
import { tenantProcedure } from "../../trpc.ts";

export const getFleetEvent = tenantProcedure(op).query(({ ctx, input }) =>
  get(ctx.services.db, ctx.principal.tenantId, input),
);
