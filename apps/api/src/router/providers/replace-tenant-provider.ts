import { replaceTenantProvider as op } from "@fleet/contracts";
import { replaceTenantProvider as replace } from "../../services/providers/tenant-provider.ts";
import { tenantProcedure } from "../../trpc.ts";

export const replaceTenantProvider = tenantProcedure(op).mutation(({ ctx, input }) =>
  replace(ctx.services, ctx.principal.tenantId, input),
);
