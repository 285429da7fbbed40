import { defineOperation, tenantCredentials } from "../operation.ts";
import { webhookEndpointParams, webhookEndpointWithSecret } from "./webhook-endpoint.ts";

export const rotateWebhookEndpointSecret = defineOperation({
  id: "webhookEndpoints.rotateSecret",
  method: "POST",
  path: "/v1/workspaces/{workspace_id}/webhook-endpoints/{endpoint_id}/rotate-secret",
  summary: "Rotate a webhook endpoint's signing secret",
  description:
    "Mints a new secret, shown in this answer only. For 24 hours every delivery carries two signatures in webhook-signature, one with each secret, so a receiver verifies with either while it switches; then the old one stops. A second rotation within the 24 hours ends the first old secret at once. The notice endpoint has no secret of its own (it signs with the workspace's notice secret, POST …/notice-secret): 409 UZ-WEBHOOK-012.",
  tags: ["Webhooks"],
  scope: "webhook:write",
  credentials: tenantCredentials,
  successStatus: 201,
  headers: { "cache-control": "no-store" },
  params: webhookEndpointParams,
  output: webhookEndpointWithSecret,
});
