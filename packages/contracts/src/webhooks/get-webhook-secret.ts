import { defineOperation, tenantCredentials } from "../operation.ts";
import { workspaceParam } from "../workspaces/workspace-param.ts";
import { webhookSecretState } from "./webhook-secret.ts";

export const getWebhookSecret = defineOperation({
  id: "webhooks.getSecret",
  method: "GET",
  path: "/v1/workspaces/{workspace_id}/webhook-secret",
  summary: "Read whether the workspace has a webhook secret",
  description:
    "Whether a webhook secret is in force, and when it was minted. The secret itself is never shown again.",
  tags: ["Webhooks"],
  scope: "workspace:admin",
  credentials: tenantCredentials,
  successStatus: 200,
  params: workspaceParam,
  output: webhookSecretState,
});
