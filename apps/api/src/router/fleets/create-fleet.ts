import { createFleet as op } from "@fleet/contracts";
import { installFleet } from "../../services/fleets/install-fleet.ts";
import { tenantProcedure } from "../../trpc.ts";

export const createFleet = tenantProcedure(op).mutation(({ ctx, input }) =>
  installFleet(ctx.services, ctx.principal.tenantId, input),
);
