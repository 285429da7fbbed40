import { defineOperation, tenantCredentials } from "../operation.ts";
import { workspaceParam } from "../workspaces/workspace-param.ts";
import { allowSelfApproval, approvalPolicy, approvalRules, escalationWebhookUrl } from "./approval-policy.ts";

export const replaceApprovalPolicy = defineOperation({
  id: "approvalPolicies.replace",
  method: "PUT",
  path: "/v1/workspaces/{workspace_id}/approval-policy",
  summary: "Replace the workspace's approval policy",
  description:
    "Replaces the whole policy. The first rule whose match fits a gate (gate_kinds and blast_radius, each any of its values; a missing list matches anything) is copied onto the gate when it opens: a later change never alters a pending gate. At most 100 rules with unique names; approvers and escalation_approvers must be members of the tenant; required_approvals 1-10 and at most the number of approvers named. escalation_webhook_url must be https to a public host; it is the workspace's notice endpoint (listed with the webhook endpoints, managed_by approval_policy), which receives gate.escalated as the approval.escalated notice and each named budget percent as budget.alert, through the outbox (recorded, retried, replayable), signed with the notice secret; null removes it. A rule that breaks these is 400 UZ-APPROVAL-002. allow_self_approval (default false) lets the person who caused a gate approve it; otherwise they are refused 403 UZ-APPROVAL-010.",
  tags: ["Approvals"],
  scope: "workspace:admin",
  credentials: tenantCredentials,
  successStatus: 200,
  // A hundred rules naming people and blast radii outgrow the 64 KiB default; 413 above this.
  bodyLimit: 256 * 1024,
  params: workspaceParam,
  body: {
    rules: approvalRules,
    escalation_webhook_url: escalationWebhookUrl,
    allow_self_approval: allowSelfApproval,
  },
  output: approvalPolicy,
});
