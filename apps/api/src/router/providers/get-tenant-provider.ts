import { getTenantProvider as op } from "@fleet/contracts";
import { getTenantProvider as get } from "../../services/providers/tenant-provider.ts";
import { tenantProcedure } from "../../trpc.ts";

export const getTenantProvider = tenantProcedure(op).query(({ ctx }) =>
  get(ctx.services, ctx.principal.tenantId),
);
