import { defineOperation, tenantCredentials } from "../operation.ts";
import { gateAnswer, gateParams, reasonField } from "./approval-gate.ts";

export const denyApproval = defineOperation({
  id: "approvals.deny",
  method: "POST",
  path: "/v1/workspaces/{workspace_id}/approvals/{gate_id}/deny",
  summary: "Deny a pending gate",
  description:
    "The first answer wins on every instance; the fleet reads the denial and does not run the action. A gate already answered is 409 UZ-APPROVAL-006 with the standing answer (UZ-APPROVAL-003 timed out, UZ-APPROVAL-005 fleet stopped).",
  tags: ["Approvals"],
  scope: "approval:resolve",
  credentials: tenantCredentials,
  successStatus: 200,
  errorStatuses: [409],
  params: gateParams,
  body: { reason: reasonField },
  output: gateAnswer,
});
