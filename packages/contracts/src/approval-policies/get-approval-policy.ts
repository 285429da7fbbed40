import { defineOperation, tenantCredentials } from "../operation.ts";
import { workspaceParam } from "../workspaces/workspace-param.ts";
import { approvalPolicy } from "./approval-policy.ts";

export const getApprovalPolicy = defineOperation({
  id: "approvalPolicies.get",
  method: "GET",
  path: "/v1/workspaces/{workspace_id}/approval-policy",
  summary: "Read the workspace's approval policy",
  description:
    "The rules in match order and the escalation webhook. A policy never set reads as the default: no rules (anyone holding approval:resolve answers, one approval decides, the runner's timeout), updated_at null.",
  tags: ["Approvals"],
  scope: "workspace:admin",
  credentials: tenantCredentials,
  successStatus: 200,
  params: workspaceParam,
  output: approvalPolicy,
});
