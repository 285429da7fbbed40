import { deleteTenantProvider as op } from "@fleet/contracts";
import { deleteTenantProvider as remove } from "../../services/providers/tenant-provider.ts";
import { tenantProcedure } from "../../trpc.ts";

export const deleteTenantProvider = tenantProcedure(op).mutation(({ ctx }) =>
  remove(ctx.services, ctx.principal.tenantId),
);
