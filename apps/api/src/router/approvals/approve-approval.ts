import { approveApproval as op } from "@fleet/contracts/approvals/approve-approval";
import { approveGate } from "../../services/approvals/approve-approval.ts";
import { actorOf, procedure } from "../../trpc.ts";

export const approveApproval = procedure(op).mutation(({ ctx, input }) =>
  approveGate(ctx.services, ctx.principal, actorOf(ctx), input),
);
