import { getWebhookSecret as op } from "@fleet/contracts/webhooks/get-webhook-secret";
import { getWebhookSecret as get } from "../../services/webhooks/get-webhook-secret.ts";
import { procedure } from "../../trpc.ts";

export const getWebhookSecret = procedure(op).query(({ ctx, input }) =>
  get(ctx.services, ctx.principal.tenantId, input.workspace_id),
);
