import { rotateWebhookEndpointSecret as op } from "@fleet/contracts/webhook-endpoints/rotate-webhook-endpoint-secret";
import { rotateWebhookEndpointSecret as rotate } from "../../services/webhook-endpoints/rotate-webhook-endpoint-secret.ts";
import { actorOf, procedure } from "../../trpc.ts";

export const rotateWebhookEndpointSecret = procedure(op).mutation(({ ctx, input }) =>
  rotate(ctx.services, actorOf(ctx), ctx.principal.tenantId, input),
);
