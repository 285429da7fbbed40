import { defineOperation, tenantCredentials } from "../operation.ts";
import { webhookDeliveryItem, webhookDeliveryParams } from "./webhook-delivery.ts";

export const retryWebhookDelivery = defineOperation({
  id: "webhookEndpoints.retryDelivery",
  method: "POST",
  path: "/v1/workspaces/{workspace_id}/webhook-endpoints/{endpoint_id}/deliveries/{event_id}/retry",
  summary: "Send a delivery again now",
  description:
    "Makes the delivery due now (status pending, next_attempt_at now), whatever its status: a failed one is tried again, a pending one is not left waiting for its next retry, and a succeeded one is sent again (with the same webhook-id, so a receiver that deduplicates sees it once). Its attempts go on counting: a retried delivery that fails waits its schedule's next step, or fails again at once if it had spent its eleven attempts. A disabled endpoint's delivery waits until the endpoint is enabled. An unknown delivery, or another endpoint's, answers 404 UZ-WEBHOOK-010.",
  tags: ["Webhooks"],
  scope: "webhook:write",
  credentials: tenantCredentials,
  successStatus: 202,
  params: webhookDeliveryParams,
  output: webhookDeliveryItem,
});
