import { defineOperation, tenantCredentials } from "../operation.ts";
import { auditDescription, auditPage, auditQuery } from "./audit-event.ts";

export const listTenantAudit = defineOperation({
  id: "audit.listTenant",
  method: "GET",
  path: "/v1/tenants/me/audit",
  summary: "List the tenant's audit log",
  description: `Every audited act in the tenant: tenant-level acts (API keys) and those of every workspace. ${auditDescription}`,
  tags: ["Audit"],
  scope: "workspace:admin",
  credentials: tenantCredentials,
  successStatus: 200,
  query: auditQuery,
  output: auditPage,
});
