import { deleteWebhookEndpoint as op } from "@fleet/contracts/webhook-endpoints/delete-webhook-endpoint";
import { deleteWebhookEndpoint as remove } from "../../services/webhook-endpoints/delete-webhook-endpoint.ts";
import { actorOf, procedure } from "../../trpc.ts";

export const deleteWebhookEndpoint = procedure(op).mutation(({ ctx, input }) =>
  remove(ctx.services, actorOf(ctx), ctx.principal.tenantId, input),
);
