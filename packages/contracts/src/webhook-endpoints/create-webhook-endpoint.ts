import { z } from "zod";
import { defineOperation, tenantCredentials } from "../operation.ts";
import { workspaceParam } from "../workspaces/workspace-param.ts";
import {
  WEBHOOK_ENDPOINTS_MAX,
  webhookDescription,
  webhookEndpointWithSecret,
  webhookEventTypeList,
  webhookFleetFilter,
  webhookUrl,
} from "./webhook-endpoint.ts";

export const createWebhookEndpoint = defineOperation({
  id: "webhookEndpoints.create",
  method: "POST",
  path: "/v1/workspaces/{workspace_id}/webhook-endpoints",
  summary: "Subscribe an endpoint to the workspace's events",
  description: `Creates an endpoint that receives the event types it names (GET /v1/webhook-event-types lists them), optionally only for one fleet of the workspace. url must be https, carry no credentials, and name a host that is, or resolves only to, public addresses (400 UZ-WEBHOOK-008); it is checked again at every delivery. Every delivery is signed with the Standard Webhooks scheme (webhook-id, webhook-timestamp, webhook-signature: v1,<base64 HMAC-SHA256 of id.timestamp.body>) with the endpoint's secret (whsec_…), which is in this answer only. A workspace has at most ${WEBHOOK_ENDPOINTS_MAX} endpoints (409 UZ-WEBHOOK-009).`,
  tags: ["Webhooks"],
  scope: "webhook:write",
  credentials: tenantCredentials,
  successStatus: 201,
  errorStatuses: [409],
  headers: { "cache-control": "no-store" },
  params: workspaceParam,
  body: {
    url: webhookUrl,
    event_types: webhookEventTypeList,
    fleet_id: webhookFleetFilter.default(null),
    description: webhookDescription.default(""),
    enabled: z.boolean({ error: "enabled must be true or false" }).default(true),
  },
  output: webhookEndpointWithSecret,
});
