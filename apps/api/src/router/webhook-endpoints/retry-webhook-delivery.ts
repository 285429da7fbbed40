import { retryWebhookDelivery as op } from "@fleet/contracts/webhook-endpoints/retry-webhook-delivery";
import { retryWebhookDelivery as retry } from "../../services/webhook-endpoints/retry-webhook-delivery.ts";
import { actorOf, procedure } from "../../trpc.ts";

export const retryWebhookDelivery = procedure(op).mutation(({ ctx, input }) =>
  retry(ctx.services, actorOf(ctx), ctx.principal.tenantId, input),
);
