import { listFleets as op } from "@fleet/contracts/fleets/list-fleets";
import { listFleets as list } from "../../services/fleets/list-fleets.ts";
import { procedure } from "../../trpc.ts";

export const listFleets = procedure(op).query(({ ctx, input }) =>
  list(ctx.services, ctx.principal.tenantId, input),
);
