import { createFleet as op } from "@fleet/contracts/fleets/create-fleet";
import { installFleet } from "../../services/fleets/install-fleet.ts";
import { procedure } from "../../trpc.ts";

export const createFleet = procedure(op).mutation(({ ctx, input }) =>
  installFleet(ctx.services, ctx.principal.tenantId, input),
);
