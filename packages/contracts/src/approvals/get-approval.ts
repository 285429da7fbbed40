import { defineOperation, tenantCredentials } from "../operation.ts";
import { approvalGate, gateParams } from "./approval-gate.ts";

export const getApproval = defineOperation({
  id: "approvals.get",
  method: "GET",
  path: "/v1/workspaces/{workspace_id}/approvals/{gate_id}",
  summary: "Read an approval gate",
  description: "The gate with its evidence and, once answered, the answer. Another workspace's gate is 404.",
  tags: ["Approvals"],
  scope: "approval:read",
  credentials: tenantCredentials,
  successStatus: 200,
  params: gateParams,
  output: approvalGate,
});
