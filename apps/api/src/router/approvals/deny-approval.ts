import { denyApproval as op } from "@fleet/contracts/approvals/deny-approval";
import { answerGate } from "../../services/approvals/answer-gate.ts";
import { actorOf, procedure } from "../../trpc.ts";

export const denyApproval = procedure(op).mutation(({ ctx, input }) =>
  answerGate(ctx.services, ctx.principal, actorOf(ctx), "denied", input),
);
