import { extendApproval as op } from "@fleet/contracts/approvals/extend-approval";
import { extendGate } from "../../services/approvals/extend-approval.ts";
import { actorOf, procedure } from "../../trpc.ts";

export const extendApproval = procedure(op).mutation(({ ctx, input }) =>
  extendGate(ctx.services, ctx.principal, actorOf(ctx), input),
);
