import { updateBudget as op } from "@fleet/contracts/billing/update-budget";
import { updateBudget as update } from "../../services/billing/update-budget.ts";
import { actorOf, procedure } from "../../trpc.ts";

export const updateBudget = procedure(op).mutation(({ ctx, input }) =>
  update(ctx.services, actorOf(ctx), ctx.principal.tenantId, input),
);
