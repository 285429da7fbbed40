import { listWorkspaceAudit as op } from "@fleet/contracts/audit/list-workspace-audit";
import { listWorkspaceAudit as list } from "../../services/audit/list-workspace-audit.ts";
import { procedure } from "../../trpc.ts";

export const listWorkspaceAudit = procedure(op).query(({ ctx, input }) =>
  list(ctx.services, ctx.principal.tenantId, input),
);
