import { replayWebhookEndpoint as op } from "@fleet/contracts/webhook-endpoints/replay-webhook-endpoint";
import { replayWebhookEndpoint as replay } from "../../services/webhook-endpoints/replay-webhook-endpoint.ts";
import { actorOf, procedure } from "../../trpc.ts";

export const replayWebhookEndpoint = procedure(op).mutation(({ ctx, input }) =>
  replay(ctx.services, actorOf(ctx), ctx.principal.tenantId, input),
);
