import { resource } from "../../trpc.ts";
import { createWebhookEndpoint } from "./create-webhook-endpoint.ts";
import { deleteWebhookEndpoint } from "./delete-webhook-endpoint.ts";
import { getWebhookDelivery } from "./get-webhook-delivery.ts";
import { getWebhookEndpoint } from "./get-webhook-endpoint.ts";
import { listWebhookDeliveries } from "./list-webhook-deliveries.ts";
import { listWebhookEndpoints } from "./list-webhook-endpoints.ts";
import { listWebhookEventTypes } from "./list-webhook-event-types.ts";
import { replayWebhookEndpoint } from "./replay-webhook-endpoint.ts";
import { retryWebhookDelivery } from "./retry-webhook-delivery.ts";
import { rotateWebhookEndpointSecret } from "./rotate-webhook-endpoint-secret.ts";
import { testWebhookEndpoint } from "./test-webhook-endpoint.ts";
import { updateWebhookEndpoint } from "./update-webhook-endpoint.ts";

export const webhookEndpointsRouter = resource(
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  getWebhookDelivery,
  getWebhookEndpoint,
  listWebhookDeliveries,
  listWebhookEndpoints,
  listWebhookEventTypes,
  replayWebhookEndpoint,
  retryWebhookDelivery,
  rotateWebhookEndpointSecret,
  testWebhookEndpoint,
  updateWebhookEndpoint,
);
