import { z } from "zod";
import { defineOperation, tenantCredentials } from "../operation.ts";

export const webhookEventTypeItem = z
  .object({
    type: z.string(),
    description: z.string(),
    /** JSON Schema of the payload's `data`. */
    data_schema: z.record(z.string(), z.unknown()),
  })
  .meta({ id: "WebhookEventType" });

export const listWebhookEventTypes = defineOperation({
  id: "webhookEndpoints.listEventTypes",
  method: "GET",
  path: "/v1/webhook-event-types",
  summary: "List the event types an endpoint may subscribe to",
  description:
    "Each type the service sends, with the JSON Schema of its payload's data. Every payload is {id, type, timestamp, data}: id is the webhook-id header (the same on every attempt and replay of the event), timestamp when the act happened (RFC 3339), data the resource as its read route shows it, secrets masked; data over 256 KiB is {truncated: true, resource, read_path} instead.",
  tags: ["Webhooks"],
  scope: null,
  credentials: tenantCredentials,
  successStatus: 200,
  output: z.object({ items: z.array(webhookEventTypeItem) }).meta({ id: "WebhookEventTypeList" }),
});
