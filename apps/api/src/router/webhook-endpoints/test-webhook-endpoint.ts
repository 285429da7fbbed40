import { testWebhookEndpoint as op } from "@fleet/contracts/webhook-endpoints/test-webhook-endpoint";
import { testWebhookEndpoint as ping } from "../../services/webhook-endpoints/test-webhook-endpoint.ts";
import { actorOf, procedure } from "../../trpc.ts";

export const testWebhookEndpoint = procedure(op).mutation(({ ctx, input }) =>
  ping(ctx.services, actorOf(ctx), ctx.principal.tenantId, input),
);
