import { connectConnector as op } from "@fleet/contracts/connectors/connect-connector";
import { startConnect } from "../../services/connectors/connectors.ts";
import { actorOf, procedure } from "../../trpc.ts";

export const connectConnector = procedure(op).mutation(({ ctx, input }) =>
  startConnect(
    ctx.services,
    actorOf(ctx),
    ctx.principal.tenantId,
    input.workspace_id,
    input.provider,
    input.api_key,
  ),
);
