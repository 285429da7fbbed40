import { approveApproval as op } from "@fleet/contracts/approvals/approve-approval";
import { answerGate } from "../../services/approvals/answer-gate.ts";
import { procedure } from "../../trpc.ts";

export const approveApproval = procedure(op).mutation(({ ctx, input }) =>
  answerGate(ctx.services, ctx.principal, "approved", input),
);
