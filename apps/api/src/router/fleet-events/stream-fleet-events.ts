import { streamFleetEvents as op } from "@fleet/contracts/fleet-events/stream-fleet-events";
import { streamFleetEvents as stream } from "../../services/fleet-events/stream-fleet-events.ts";
import { procedure } from "../../trpc.ts";

export const streamFleetEvents = procedure(op).stream(({ ctx, input }) =>
  stream(ctx.services, ctx.principal.tenantId, input),
);
