import { auditEvents, eq } from "@fleet/db";
import type { ServiceContext } from "../shared/context.ts";
import { type AuditQuery, auditPage } from "./audit-page.ts";

/** Every audited act of the tenant: its tenant-level acts and those of all its workspaces. */
export async function listTenantAudit(ctx: ServiceContext, tenantId: string, input: AuditQuery) {
  return auditPage(ctx, eq(auditEvents.tenantId, tenantId), `tenant:${tenantId}`, input);
}
