import { getConnector as op } from "@fleet/contracts/connectors/get-connector";
import { connectorStatus } from "../../services/connectors/connectors.ts";
import { procedure } from "../../trpc.ts";

export const getConnector = procedure(op).query(({ ctx, input }) =>
  connectorStatus(ctx.services, ctx.principal.tenantId, input.workspace_id, input.provider),
);
