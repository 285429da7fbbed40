import { listWebhookEndpoints as op } from "@fleet/contracts/webhook-endpoints/list-webhook-endpoints";
import { listWebhookEndpoints as list } from "../../services/webhook-endpoints/list-webhook-endpoints.ts";
import { procedure } from "../../trpc.ts";

export const listWebhookEndpoints = procedure(op).query(({ ctx, input }) =>
  list(ctx.services, ctx.principal.tenantId, input),
);
