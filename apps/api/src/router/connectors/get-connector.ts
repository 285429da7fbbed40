import { getConnector as op } from "@fleet/contracts/connectors/get-connector";
import { getConnector as read } from "../../services/connectors/get-connector.ts";
import { procedure } from "../../trpc.ts";

export const getConnector = procedure(op).query(({ ctx, input }) =>
  read(ctx.services, ctx.principal.tenantId, input.workspace_id, input.provider),
);
