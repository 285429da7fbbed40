import { listTenantAudit as op } from "@fleet/contracts/audit/list-tenant-audit";
import { listTenantAudit as list } from "../../services/audit/list-tenant-audit.ts";
import { procedure } from "../../trpc.ts";

export const listTenantAudit = procedure(op).query(({ ctx, input }) =>
  list(ctx.services, ctx.principal.tenantId, input),
);
