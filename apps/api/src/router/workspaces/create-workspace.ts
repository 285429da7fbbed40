import { createWorkspace as op } from "@fleet/contracts/workspaces/create-workspace";
import { createWorkspace as create } from "../../services/workspaces/create-workspace.ts";
import { actorOf, procedure } from "../../trpc.ts";

export const createWorkspace = procedure(op).mutation(async ({ ctx, input }) => ({
  ...(await create(ctx.services, actorOf(ctx), ctx.principal.tenantId, input.name)),
  request_id: ctx.requestId,
}));
