import { z } from "zod";
import { cursorParam, queryInt, uuidv7 } from "../common.ts";
import { defineOperation, tenantCredentials } from "../operation.ts";
import { workspaceParam } from "../workspaces/workspace-param.ts";
import { approvalGate, gateStatuses } from "./approval-gate.ts";

export const listApprovals = defineOperation({
  id: "approvals.list",
  method: "GET",
  path: "/v1/workspaces/{workspace_id}/approvals",
  summary: "List approval gates (the inbox)",
  description:
    "Oldest first (the oldest is the most urgent), keyset-paged over (requested_at, gate_id) so gates opened between page reads are never skipped. status defaults to pending. The cursor travels as cursor (decisions.md) or starting_after (the API's name elsewhere), not both. A page holds up to limit gates and stops early when its items would pass 1 MiB as JSON (gates carry up to 64 KiB of evidence each); follow next_cursor until it is null.",
  tags: ["Approvals"],
  scope: "approval:read",
  credentials: tenantCredentials,
  successStatus: 200,
  params: workspaceParam,
  query: {
    status: z
      .enum(gateStatuses, { error: `status must be one of ${gateStatuses.join(", ")}` })
      .default("pending"),
    limit: queryInt("limit", 1, 200).default(50),
    fleet_id: uuidv7("fleet_id").optional(),
    gate_kind: z.string().min(1).max(64).optional(),
    cursor: cursorParam.optional(),
    starting_after: cursorParam.optional(),
  },
  output: z
    .object({ items: z.array(approvalGate), next_cursor: z.string().nullable() })
    .meta({ id: "ApprovalGatePage" }),
});
