import { streamWorkspaceEvents as op } from "@fleet/contracts/fleet-events/stream-workspace-events";
import { streamWorkspaceEvents as stream } from "../../services/fleet-events/stream-workspace-events.ts";
import { procedure } from "../../trpc.ts";

export const streamWorkspaceEvents = procedure(op).stream(({ ctx, input }) =>
  stream(ctx.services, ctx.principal.tenantId, input),
);
