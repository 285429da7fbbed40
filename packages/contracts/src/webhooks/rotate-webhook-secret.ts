import { defineOperation, tenantCredentials } from "../operation.ts";
import { workspaceParam } from "../workspaces/workspace-param.ts";
import { mintedWebhookSecret, webhookSecretDescription } from "./webhook-secret.ts";

export const rotateWebhookSecret = defineOperation({
  id: "webhooks.rotateSecret",
  method: "POST",
  path: "/v1/workspaces/{workspace_id}/webhook-secret",
  summary: "Mint or rotate the workspace's webhook secret",
  description: `Mints a new webhook secret (agt_w…) for the workspace, shown in this answer only; the service stores it sealed. It verifies the grant-approval webhook, and nothing else: the service signs its own notices with the notice secret (POST …/notice-secret), so a receiver of notices cannot approve grants. A secret already in force is replaced and stops verifying at once (no grace period). ${webhookSecretDescription}`,
  tags: ["Webhooks"],
  scope: "workspace:admin",
  credentials: tenantCredentials,
  successStatus: 201,
  headers: { "cache-control": "no-store" },
  params: workspaceParam,
  output: mintedWebhookSecret,
});
