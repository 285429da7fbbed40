import { getWebhookDelivery as op } from "@fleet/contracts/webhook-endpoints/get-webhook-delivery";
import { getWebhookDelivery as get } from "../../services/webhook-endpoints/get-webhook-delivery.ts";
import { procedure } from "../../trpc.ts";

export const getWebhookDelivery = procedure(op).query(({ ctx, input }) =>
  get(ctx.services, ctx.principal.tenantId, input),
);
