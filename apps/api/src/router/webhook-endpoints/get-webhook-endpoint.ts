import { getWebhookEndpoint as op } from "@fleet/contracts/webhook-endpoints/get-webhook-endpoint";
import { getWebhookEndpoint as get } from "../../services/webhook-endpoints/get-webhook-endpoint.ts";
import { procedure } from "../../trpc.ts";

export const getWebhookEndpoint = procedure(op).query(({ ctx, input }) =>
  get(ctx.services, ctx.principal.tenantId, input),
);
