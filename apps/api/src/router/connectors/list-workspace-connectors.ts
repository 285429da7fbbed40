import { listWorkspaceConnectors as op } from "@fleet/contracts/connectors/list-workspace-connectors";
import { listWorkspaceConnectors as list } from "../../services/connectors/list-workspace-connectors.ts";
import { procedure } from "../../trpc.ts";

export const listWorkspaceConnectors = procedure(op).query(({ ctx, input }) =>
  list(ctx.services, ctx.principal.tenantId, input.workspace_id),
);
