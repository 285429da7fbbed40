import { createFleet as op } from "@fleet/contracts/fleets/create-fleet";
import { createFleet as create } from "../../services/fleets/create-fleet.ts";
import { actorOf, procedure } from "../../trpc.ts";

export const createFleet = procedure(op).mutation(({ ctx, input }) =>
  create(ctx.services, actorOf(ctx), ctx.principal.tenantId, input),
);
