import { z } from "zod";
import { defineOperation, tenantCredentials } from "../operation.ts";
import { webhookEndpointParams } from "./webhook-endpoint.ts";

export const deleteWebhookEndpoint = defineOperation({
  id: "webhookEndpoints.delete",
  method: "DELETE",
  path: "/v1/workspaces/{workspace_id}/webhook-endpoints/{endpoint_id}",
  summary: "Delete a webhook endpoint",
  description:
    "Removes the endpoint with its deliveries and their attempts; nothing more is sent to it. An unknown endpoint answers 404 UZ-WEBHOOK-007. The notice endpoint is removed by setting the approval policy's escalation_webhook_url to null (here: 409 UZ-WEBHOOK-012).",
  tags: ["Webhooks"],
  scope: "webhook:write",
  credentials: tenantCredentials,
  successStatus: 204,
  params: webhookEndpointParams,
  output: z.void(),
});
