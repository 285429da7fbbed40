import { denyApproval as op } from "@fleet/contracts/approvals/deny-approval";
import { denyGate } from "../../services/approvals/deny-approval.ts";
import { actorOf, procedure } from "../../trpc.ts";

export const denyApproval = procedure(op).mutation(({ ctx, input }) =>
  denyGate(ctx.services, ctx.principal, actorOf(ctx), input),
);
