import { listEventFrames as op } from "@fleet/contracts/fleet-events/list-event-frames";
import { listEventFrames as list } from "../../services/fleet-events/list-event-frames.ts";
import { procedure } from "../../trpc.ts";

export const listEventFrames = procedure(op).query(({ ctx, input }) =>
  list(ctx.services, ctx.principal.tenantId, input),
);
