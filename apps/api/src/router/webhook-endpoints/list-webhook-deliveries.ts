import { listWebhookDeliveries as op } from "@fleet/contracts/webhook-endpoints/list-webhook-deliveries";
import { listWebhookDeliveries as list } from "../../services/webhook-endpoints/list-webhook-deliveries.ts";
import { procedure } from "../../trpc.ts";

export const listWebhookDeliveries = procedure(op).query(({ ctx, input }) =>
  list(ctx.services, ctx.principal.tenantId, input),
);
