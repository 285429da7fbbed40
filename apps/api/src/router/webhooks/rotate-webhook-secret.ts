import { rotateWebhookSecret as op } from "@fleet/contracts/webhooks/rotate-webhook-secret";
import { rotateWebhookSecret as rotate } from "../../services/webhooks/rotate-webhook-secret.ts";
import { actorOf, procedure } from "../../trpc.ts";

export const rotateWebhookSecret = procedure(op).mutation(({ ctx, input }) =>
  rotate(ctx.services, actorOf(ctx), ctx.principal.tenantId, input.workspace_id),
);
