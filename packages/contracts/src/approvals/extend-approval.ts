import { z } from "zod";
import { defineOperation, tenantCredentials } from "../operation.ts";
import { approvalGate, GATE_TIMEOUT_MAX_MS, gateParams } from "./approval-gate.ts";

export const extendApproval = defineOperation({
  id: "approvals.extend",
  method: "POST",
  path: "/v1/workspaces/{workspace_id}/approvals/{gate_id}/extend",
  summary: "Extend a pending gate's deadline, once",
  description:
    "Moves timeout_at later by extend_ms, once per gate (a second extension is 409 UZ-APPROVAL-007), within the gate's rule's max_extension_ms (default 1 h) and at most 24 h after the gate was requested (400 UZ-APPROVAL-002 beyond either). Whoever may answer the gate may extend it (403 UZ-APPROVAL-004 otherwise). A waiting runner reads the new timeout_at at once.",
  tags: ["Approvals"],
  scope: "approval:resolve",
  credentials: tenantCredentials,
  successStatus: 200,
  errorStatuses: [409],
  params: gateParams,
  body: {
    extend_ms: z
      .number({ error: "extend_ms must be an integer" })
      .int({ error: "extend_ms must be an integer" })
      .min(1_000, { error: `extend_ms must be from 1000 to ${GATE_TIMEOUT_MAX_MS}` })
      .max(GATE_TIMEOUT_MAX_MS, { error: `extend_ms must be from 1000 to ${GATE_TIMEOUT_MAX_MS}` }),
    reason: z
      .string({ error: "reason is required: say why the gate needs longer" })
      .trim()
      .min(1, { error: "reason must not be empty" })
      .max(2000, { error: "reason must be at most 2000 characters" }),
  },
  output: approvalGate,
});
