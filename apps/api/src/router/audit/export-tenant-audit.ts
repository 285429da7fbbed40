import { exportTenantAudit as op } from "@fleet/contracts/audit/export-tenant-audit";
import { exportTenantAudit as lines } from "../../services/audit/export-tenant-audit.ts";
import { procedure } from "../../trpc.ts";

export const exportTenantAudit = procedure(op).lines(({ ctx, input }) =>
  lines(ctx.services, ctx.principal.tenantId, input),
);
