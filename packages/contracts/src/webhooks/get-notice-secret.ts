import { defineOperation, tenantCredentials } from "../operation.ts";
import { workspaceParam } from "../workspaces/workspace-param.ts";
import { webhookSecretState } from "./webhook-secret.ts";

export const getNoticeSecret = defineOperation({
  id: "webhooks.getNoticeSecret",
  method: "GET",
  path: "/v1/workspaces/{workspace_id}/notice-secret",
  summary: "Read whether the workspace has a notice secret",
  description:
    "Whether a notice secret (the one the service signs its notices with) is in force, and when it was minted. The secret itself is never shown again.",
  tags: ["Webhooks"],
  scope: "workspace:admin",
  credentials: tenantCredentials,
  successStatus: 200,
  params: workspaceParam,
  output: webhookSecretState,
});
