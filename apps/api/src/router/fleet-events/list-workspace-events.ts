import { listWorkspaceEvents as op } from "@fleet/contracts/fleet-events/list-workspace-events";
import { listWorkspaceEvents as list } from "../../services/fleet-events/list-workspace-events.ts";
import { procedure } from "../../trpc.ts";

export const listWorkspaceEvents = procedure(op).query(({ ctx, input }) =>
  list(ctx.services, ctx.principal.tenantId, input),
);
