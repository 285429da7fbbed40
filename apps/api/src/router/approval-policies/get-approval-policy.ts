import { getApprovalPolicy as op } from "@fleet/contracts/approval-policies/get-approval-policy";
import { getApprovalPolicy as get } from "../../services/approval-policies/get-approval-policy.ts";
import { procedure } from "../../trpc.ts";

export const getApprovalPolicy = procedure(op).query(({ ctx, input }) =>
  get(ctx.services, ctx.principal.tenantId, input.workspace_id),
);
