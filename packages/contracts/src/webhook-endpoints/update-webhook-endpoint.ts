import { z } from "zod";
import { defineOperation, tenantCredentials } from "../operation.ts";
import {
  webhookDescription,
  webhookEndpointItem,
  webhookEndpointParams,
  webhookEventTypeList,
  webhookFleetFilter,
  webhookUrl,
} from "./webhook-endpoint.ts";

export const updateWebhookEndpoint = defineOperation({
  id: "webhookEndpoints.update",
  method: "PATCH",
  path: "/v1/workspaces/{workspace_id}/webhook-endpoints/{endpoint_id}",
  summary: "Change a webhook endpoint",
  description:
    "Changes the fields sent, leaving the rest. A new url is checked as at create (400 UZ-WEBHOOK-008). enabled: true enables an endpoint the service disabled (disabled_reason gone or failing) too, clearing disabled_reason and disabled_at; its pending deliveries then go on. Deliveries already written keep the endpoints they were written for; an event is written to the endpoints subscribed a moment after its act, when the deliverer fans it out. The notice endpoint (managed_by approval_policy) takes enabled only; any other field is the approval policy's: 409 UZ-WEBHOOK-012, nothing changed.",
  tags: ["Webhooks"],
  scope: "webhook:write",
  credentials: tenantCredentials,
  successStatus: 200,
  params: webhookEndpointParams,
  body: {
    url: webhookUrl.optional(),
    event_types: webhookEventTypeList.optional(),
    fleet_id: webhookFleetFilter.optional(),
    description: webhookDescription.optional(),
    enabled: z.boolean({ error: "enabled must be true or false" }).optional(),
  },
  output: webhookEndpointItem,
});
