import { updateWebhookEndpoint as op } from "@fleet/contracts/webhook-endpoints/update-webhook-endpoint";
import { updateWebhookEndpoint as update } from "../../services/webhook-endpoints/update-webhook-endpoint.ts";
import { actorOf, procedure } from "../../trpc.ts";

export const updateWebhookEndpoint = procedure(op).mutation(({ ctx, input }) =>
  update(ctx.services, actorOf(ctx), ctx.principal.tenantId, input),
);
