import { listWorkspaces as op } from "@fleet/contracts/workspaces/list-workspaces";
import { listWorkspaces as list } from "../../services/workspaces/list-workspaces.ts";
import { procedure } from "../../trpc.ts";

export const listWorkspaces = procedure(op).query(({ ctx, input }) =>
  list(ctx.services, ctx.principal.tenantId, input),
);
