import { listWorkspaces as op } from "@fleet/contracts";
import { listWorkspaces as list } from "../../services/workspaces/workspaces.ts";
import { tenantProcedure } from "../../trpc.ts";

export const listWorkspaces = tenantProcedure(op).query(({ ctx, input }) =>
  list(ctx.services.db, ctx.principal.tenantId, input),
);
