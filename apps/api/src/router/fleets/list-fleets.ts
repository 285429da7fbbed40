import { listFleets as op } from "@fleet/contracts";
import { listFleets as list } from "../../services/fleets/fleets.ts";
import { tenantProcedure } from "../../trpc.ts";

export const listFleets = tenantProcedure(op).query(({ ctx, input }) =>
  list(ctx.services.db, ctx.principal.tenantId, input),
);
