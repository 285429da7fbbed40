import { listFleetEvents as op } from "@fleet/contracts/fleet-events/list-fleet-events";
import { listFleetEvents as list } from "../../services/fleet-events/list-fleet-events.ts";
import { procedure } from "../../trpc.ts";

export const listFleetEvents = procedure(op).query(({ ctx, input }) =>
  list(ctx.services, ctx.principal.tenantId, input),
);
