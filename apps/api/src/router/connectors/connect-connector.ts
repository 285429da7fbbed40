import { connectConnector as op } from "@fleet/contracts/connectors/connect-connector";
import { connectConnector as connect } from "../../services/connectors/connect-connector.ts";
import { actorOf, procedure } from "../../trpc.ts";

export const connectConnector = procedure(op).mutation(({ ctx, input }) =>
  connect(
    ctx.services,
    actorOf(ctx),
    ctx.principal.tenantId,
    input.workspace_id,
    input.provider,
    input.api_key,
  ),
);
