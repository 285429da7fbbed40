import { deleteConnector as op } from "@fleet/contracts/connectors/delete-connector";
import { deleteConnector as remove } from "../../services/connectors/delete-connector.ts";
import { actorOf, procedure } from "../../trpc.ts";

export const deleteConnector = procedure(op).mutation(({ ctx, input }) =>
  remove(ctx.services, actorOf(ctx), ctx.principal.tenantId, input.workspace_id, input.provider),
);
