import { listRoutes as op } from "@fleet/contracts/connectors/list-routes";
import { listRoutes as list } from "../../services/connectors/list-routes.ts";
import { procedure } from "../../trpc.ts";

export const listRoutes = procedure(op).query(({ ctx, input }) =>
  list(ctx.services, {
    tenantId: ctx.principal.tenantId,
    workspaceId: input.workspace_id,
    provider: input.provider,
  }),
);
