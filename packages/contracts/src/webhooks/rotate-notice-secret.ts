import { defineOperation, tenantCredentials } from "../operation.ts";
import { workspaceParam } from "../workspaces/workspace-param.ts";
import { mintedWebhookSecret, webhookSecretDescription } from "./webhook-secret.ts";

export const rotateNoticeSecret = defineOperation({
  id: "webhooks.rotateNoticeSecret",
  method: "POST",
  path: "/v1/workspaces/{workspace_id}/notice-secret",
  summary: "Mint or rotate the workspace's notice secret",
  description: `Mints a new notice secret (agt_w…) for the workspace, shown in this answer only; the service stores it sealed. The service signs the notices it sends to the workspace's notice endpoint (the approval policy's escalation URL: a gate's escalation, a budget alert) with it, from the next attempt on; without one, an attempt fails (no_notice_secret) and waits to retry. It verifies nothing the service receives: grant decisions are verified with the webhook secret. A secret already in force is replaced and stops signing at once. ${webhookSecretDescription}`,
  tags: ["Webhooks"],
  scope: "workspace:admin",
  credentials: tenantCredentials,
  successStatus: 201,
  headers: { "cache-control": "no-store" },
  params: workspaceParam,
  output: mintedWebhookSecret,
});
