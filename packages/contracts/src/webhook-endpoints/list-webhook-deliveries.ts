import { z } from "zod";
import { cursorParam, page, queryInt } from "../common.ts";
import { defineOperation, tenantCredentials } from "../operation.ts";
import { WEBHOOK_PING_TYPE } from "./test-webhook-endpoint.ts";
import {
  WEBHOOK_DELIVERY_ATTEMPTS_SHOWN,
  webhookDeliveryItem,
  webhookDeliveryStatuses,
} from "./webhook-delivery.ts";
import { webhookEndpointParams, webhookEventTypes } from "./webhook-endpoint.ts";

export const listWebhookDeliveries = defineOperation({
  id: "webhookEndpoints.listDeliveries",
  method: "GET",
  path: "/v1/workspaces/{workspace_id}/webhook-endpoints/{endpoint_id}/deliveries",
  summary: "List an endpoint's deliveries",
  description: `The endpoint's delivery log, newest first, cursor-paged: follow next_cursor until it is null (a cursor is bound to the filters it was issued with). status and type filter it. Each delivery is one event to this endpoint, named by the event's id (its webhook-id), with the request as sent and its latest ${WEBHOOK_DELIVERY_ATTEMPTS_SHOWN} attempts, newest first. An unknown endpoint answers 404 UZ-WEBHOOK-007.`,
  tags: ["Webhooks"],
  scope: "webhook:read",
  credentials: tenantCredentials,
  successStatus: 200,
  params: webhookEndpointParams,
  query: {
    status: z
      .enum(webhookDeliveryStatuses, { error: `status must be one of ${webhookDeliveryStatuses.join(", ")}` })
      .optional(),
    type: z
      .enum([...webhookEventTypes, WEBHOOK_PING_TYPE], {
        error: `type must be ping or one of ${webhookEventTypes.join(", ")}`,
      })
      .optional(),
    starting_after: cursorParam.optional(),
    limit: queryInt("limit", 1, 100).default(20),
  },
  output: page(webhookDeliveryItem).meta({ id: "WebhookDeliveryPage" }),
});
