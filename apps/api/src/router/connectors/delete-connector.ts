import { deleteConnector as op } from "@fleet/contracts/connectors/delete-connector";
import { disconnect } from "../../services/connectors/connectors.ts";
import { actorOf, procedure } from "../../trpc.ts";

export const deleteConnector = procedure(op).mutation(({ ctx, input }) =>
  disconnect(ctx.services, actorOf(ctx), ctx.principal.tenantId, input.workspace_id, input.provider),
);
