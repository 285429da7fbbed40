import { cursorParam, page, queryInt } from "../common.ts";
import { defineOperation, tenantCredentials } from "../operation.ts";
import { workspaceParam } from "../workspaces/workspace-param.ts";
import { webhookEndpointItem } from "./webhook-endpoint.ts";

export const listWebhookEndpoints = defineOperation({
  id: "webhookEndpoints.list",
  method: "GET",
  path: "/v1/workspaces/{workspace_id}/webhook-endpoints",
  summary: "List the workspace's webhook endpoints",
  description:
    "Newest first, cursor-paged: follow next_cursor until it is null. Never a secret. The workspace's notice endpoint, the approval policy's escalation URL, is listed too (managed_by approval_policy), beside no more than 50 of the workspace's own.",
  tags: ["Webhooks"],
  scope: "webhook:read",
  credentials: tenantCredentials,
  successStatus: 200,
  params: workspaceParam,
  query: { starting_after: cursorParam.optional(), limit: queryInt("limit", 1, 100).default(50) },
  output: page(webhookEndpointItem).meta({ id: "WebhookEndpointPage" }),
});
