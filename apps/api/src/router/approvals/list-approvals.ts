import { listApprovals as op } from "@fleet/contracts/approvals/list-approvals";
import { listApprovals as list } from "../../services/approvals/list-approvals.ts";
import { procedure } from "../../trpc.ts";

export const listApprovals = procedure(op).query(({ ctx, input }) =>
  list(ctx.services, ctx.principal.tenantId, input),
);
