import { resource } from "../../trpc.ts";
import { createWebhookEndpoint } from "./create-webhook-endpoint.ts";
import { deleteWebhookEndpoint } from "./delete-webhook-endpoint.ts";
import { getWebhookEndpoint } from "./get-webhook-endpoint.ts";
import { listWebhookEndpoints } from "./list-webhook-endpoints.ts";
import { listWebhookEventTypes } from "./list-webhook-event-types.ts";
import { rotateWebhookEndpointSecret } from "./rotate-webhook-endpoint-secret.ts";
import { updateWebhookEndpoint } from "./update-webhook-endpoint.ts";

export const webhookEndpointsRouter = resource(
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  getWebhookEndpoint,
  listWebhookEndpoints,
  listWebhookEventTypes,
  rotateWebhookEndpointSecret,
  updateWebhookEndpoint,
);
