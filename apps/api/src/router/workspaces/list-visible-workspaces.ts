import { listVisibleWorkspaces as op } from "@fleet/contracts/workspaces/list-visible-workspaces";
import { listVisibleWorkspaces as list } from "../../services/workspaces/list-visible-workspaces.ts";
import { procedure } from "../../trpc.ts";

export const listVisibleWorkspaces = procedure(op).query(({ ctx, input }) =>
  list(ctx.services, ctx.principal.tenantId, input),
);
