import { getFleetEvent as op } from "@fleet/contracts/fleet-events/get-fleet-event";
import { getFleetEvent as get } from "../../services/fleet-events/get-fleet-event.ts";
import { procedure } from "../../trpc.ts";

export const getFleetEvent = procedure(op).query(({ ctx, input }) =>
  get(ctx.services, ctx.principal.tenantId, input),
);
