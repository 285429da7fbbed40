import { creditTenant as op } from "@fleet/contracts/billing/credit-tenant";
import { creditTenant as credit } from "../../services/billing/credit-tenant.ts";
import { actorOf, procedure } from "../../trpc.ts";

export const creditTenant = procedure(op).mutation(async ({ ctx, input }) => {
  const { credit: applied, created } = await credit(ctx.services, actorOf(ctx), input);
  if (!created) ctx.response.status = 200;
  return applied;
});
