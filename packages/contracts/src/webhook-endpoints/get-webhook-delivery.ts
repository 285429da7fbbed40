import { defineOperation, tenantCredentials } from "../operation.ts";
import {
  WEBHOOK_DELIVERY_ATTEMPTS_SHOWN,
  webhookDeliveryItem,
  webhookDeliveryParams,
} from "./webhook-delivery.ts";

export const getWebhookDelivery = defineOperation({
  id: "webhookEndpoints.getDelivery",
  method: "GET",
  path: "/v1/workspaces/{workspace_id}/webhook-endpoints/{endpoint_id}/deliveries/{event_id}",
  summary: "Read one delivery",
  description: `One delivery of the endpoint, named by its event's id (its webhook-id), as the delivery log shows it: the request as sent and its latest ${WEBHOOK_DELIVERY_ATTEMPTS_SHOWN} attempts, newest first. An unknown endpoint, or another workspace's, answers 404 UZ-WEBHOOK-007; an event this endpoint was never sent (unknown, or another endpoint's) answers 404 UZ-WEBHOOK-010.`,
  tags: ["Webhooks"],
  scope: "webhook:read",
  credentials: tenantCredentials,
  successStatus: 200,
  params: webhookDeliveryParams,
  output: webhookDeliveryItem,
});
