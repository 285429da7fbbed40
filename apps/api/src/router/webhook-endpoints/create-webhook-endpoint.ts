import { createWebhookEndpoint as op } from "@fleet/contracts/webhook-endpoints/create-webhook-endpoint";
import { createWebhookEndpoint as create } from "../../services/webhook-endpoints/create-webhook-endpoint.ts";
import { actorOf, procedure } from "../../trpc.ts";

export const createWebhookEndpoint = procedure(op).mutation(({ ctx, input }) =>
  create(ctx.services, actorOf(ctx), ctx.principal.tenantId, input),
);
