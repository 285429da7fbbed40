import { z } from "zod";
import { defineOperation, tenantCredentials } from "../operation.ts";
import { ACTION_MAX_CHARS, gateAnswer, gateParams, reasonField } from "./approval-gate.ts";

export const approveApproval = defineOperation({
  id: "approvals.approve",
  method: "POST",
  path: "/v1/workspaces/{workspace_id}/approvals/{gate_id}/approve",
  summary: "Approve a pending gate",
  description:
    "Under the workspace's approval policy the gate's rule may name who answers (403 UZ-APPROVAL-004 naming the rule) and require M approvals from different people: until the M-th the answer is 200 with outcome pending and the approvals so far (a person approving twice is 409 UZ-APPROVAL-008); any denial decides. Only people count: the person who caused the gate (its message's sender, its grant's requester) is refused 403 UZ-APPROVAL-010 unless the policy sets allow_self_approval; an approval that could not count (the person joined after the gate opened, or someone of their invitation family approved already) is refused 403 UZ-APPROVAL-011 and not kept; a member who leaves stops counting (their approval stays, counted: false). With the default one approval, the first answer wins on every instance. amended_action (one-approver rules only) approves a changed action in place of the proposed one (the gate keeps both). A gate already answered is 409 UZ-APPROVAL-006 with the standing answer (gate_id, action_id, outcome, resolved_at, resolved_by, current_state); one that timed out 409 UZ-APPROVAL-003, one whose fleet was stopped 409 UZ-APPROVAL-005, with the same fields.",
  tags: ["Approvals"],
  scope: "approval:resolve",
  credentials: tenantCredentials,
  successStatus: 200,
  errorStatuses: [409],
  params: gateParams,
  body: {
    reason: reasonField,
    amended_action: z
      .string({ error: "amended_action must be a string" })
      .min(1, { error: "amended_action must not be empty" })
      .max(ACTION_MAX_CHARS, { error: `amended_action must be at most ${ACTION_MAX_CHARS} characters` })
      .optional(),
  },
  output: gateAnswer,
});
