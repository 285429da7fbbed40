import { defineOperation, tenantCredentials } from "../operation.ts";
import { webhookEndpointItem, webhookEndpointParams } from "./webhook-endpoint.ts";

export const getWebhookEndpoint = defineOperation({
  id: "webhookEndpoints.get",
  method: "GET",
  path: "/v1/workspaces/{workspace_id}/webhook-endpoints/{endpoint_id}",
  summary: "Read a webhook endpoint",
  description:
    "The endpoint with its health (attempts and 2xx share over the last 24 hours, the latest failure), never its secret. An unknown endpoint, or another workspace's, answers 404 UZ-WEBHOOK-007.",
  tags: ["Webhooks"],
  scope: "webhook:read",
  credentials: tenantCredentials,
  successStatus: 200,
  params: webhookEndpointParams,
  output: webhookEndpointItem,
});
