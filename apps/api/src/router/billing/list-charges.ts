import { listCharges as op } from "@fleet/contracts/billing/list-charges";
import { listCharges as list } from "../../services/billing/list-charges.ts";
import { procedure } from "../../trpc.ts";

export const listCharges = procedure(op).query(({ ctx, input }) =>
  list(ctx.services, ctx.principal.tenantId, input),
);
