import { z } from "zod";
import { epochMs } from "../common.ts";
import { defineOperation, tenantCredentials } from "../operation.ts";
import { WEBHOOK_REPLAY_MAX, WEBHOOK_REPLAY_WINDOW_MS } from "./webhook-delivery.ts";
import { webhookEndpointParams } from "./webhook-endpoint.ts";

export const replayWebhookEndpoint = defineOperation({
  id: "webhookEndpoints.replay",
  method: "POST",
  path: "/v1/workspaces/{workspace_id}/webhook-endpoints/{endpoint_id}/replay",
  summary: "Send an endpoint everything since a time",
  description: `Queues every event of the workspace since since (epoch ms, inclusive) that the endpoint's subscription matches now (its event types and fleet filter): a delivery it already has is due again now, an event it never got gets a delivery. Oldest first, at most ${WEBHOOK_REPLAY_MAX} events a call: when more match, next_since says where to call again from. Each resource's events still arrive in order. since may reach back ${WEBHOOK_REPLAY_WINDOW_MS / 86_400_000} days at most (400 UZ-WEBHOOK-011 otherwise). Pings are never replayed.`,
  tags: ["Webhooks"],
  scope: "webhook:write",
  credentials: tenantCredentials,
  successStatus: 202,
  params: webhookEndpointParams,
  body: {
    since: z
      .number({ error: "since must be epoch milliseconds" })
      .int({ error: "since must be epoch milliseconds" })
      .min(0, { error: "since must be epoch milliseconds" }),
  },
  output: z
    .object({
      /** Deliveries made due by this call. */
      queued: z.number().int(),
      /** Where to call again from when more events matched than one call queues; null when all were. */
      next_since: epochMs.nullable(),
    })
    .meta({ id: "WebhookReplay" }),
});
