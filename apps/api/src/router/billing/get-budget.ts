import { getBudget as op } from "@fleet/contracts/billing/get-budget";
import { getBudget as read } from "../../services/billing/get-budget.ts";
import { procedure } from "../../trpc.ts";

export const getBudget = procedure(op).query(({ ctx, input }) =>
  read(ctx.services, ctx.principal.tenantId, input),
);
