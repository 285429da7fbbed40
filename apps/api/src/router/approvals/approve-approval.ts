import { approveApproval as op } from "@fleet/contracts/approvals/approve-approval";
import { answerGate } from "../../services/approvals/answer-gate.ts";
import { actorOf, procedure } from "../../trpc.ts";

export const approveApproval = procedure(op).mutation(({ ctx, input }) =>
  answerGate(ctx.services, ctx.principal, actorOf(ctx), "approved", input),
);
