import { z } from "zod";
import { epochMs } from "../common.ts";
import { defineOperation, tenantCredentials } from "../operation.ts";
import { webhookDeliveryItem } from "./webhook-delivery.ts";
import { webhookEndpointParams } from "./webhook-endpoint.ts";

/** The type of a test delivery; no endpoint subscribes to it, and a replay never sends it. */
export const WEBHOOK_PING_TYPE = "ping";

/** A ping's data: which endpoint it tests, and when it was asked for. */
export const webhookPingData = z
  .object({ endpoint_id: z.string(), workspace_id: z.string(), requested_at: epochMs })
  .meta({ id: "WebhookPingData" });

export const testWebhookEndpoint = defineOperation({
  id: "webhookEndpoints.test",
  method: "POST",
  path: "/v1/workspaces/{workspace_id}/webhook-endpoints/{endpoint_id}/test",
  summary: "Send an endpoint a ping",
  description:
    "Sends this endpoint, and it only, a ping event ({id, type: ping, timestamp, data: {endpoint_id, workspace_id, requested_at}}) through the outbox: signed like any delivery, listed in its deliveries and retried on failure. Answers the delivery, pending. A disabled endpoint's ping waits until it is enabled.",
  tags: ["Webhooks"],
  scope: "webhook:write",
  credentials: tenantCredentials,
  successStatus: 202,
  params: webhookEndpointParams,
  output: webhookDeliveryItem,
});
