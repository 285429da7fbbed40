import { getApproval as op } from "@fleet/contracts/approvals/get-approval";
import { getApproval as get } from "../../services/approvals/get-approval.ts";
import { procedure } from "../../trpc.ts";

export const getApproval = procedure(op).query(({ ctx, input }) =>
  get(ctx.services, ctx.principal.tenantId, input.workspace_id, input.gate_id),
);
