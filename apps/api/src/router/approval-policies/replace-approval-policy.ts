import { replaceApprovalPolicy as op } from "@fleet/contracts/approval-policies/replace-approval-policy";
import { replaceApprovalPolicy as replace } from "../../services/approval-policies/replace-approval-policy.ts";
import { actorOf, procedure } from "../../trpc.ts";

export const replaceApprovalPolicy = procedure(op).mutation(({ ctx, input }) =>
  replace(ctx.services, actorOf(ctx), ctx.principal.tenantId, input),
);
