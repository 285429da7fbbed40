import { createWorkspace as op } from "@fleet/contracts";
import { createWorkspace as create } from "../../services/workspaces/workspaces.ts";
import { tenantProcedure } from "../../trpc.ts";

export const createWorkspace = tenantProcedure(op).mutation(async ({ ctx, input }) => ({
  ...(await create(ctx.services, ctx.principal.tenantId, input.name)),
  request_id: ctx.requestId,
}));
