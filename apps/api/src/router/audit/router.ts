import { resource } from "../../trpc.ts";
import { exportTenantAudit } from "./export-tenant-audit.ts";
import { listTenantAudit } from "./list-tenant-audit.ts";
import { listWorkspaceAudit } from "./list-workspace-audit.ts";

export const auditRouter = resource(exportTenantAudit, listTenantAudit, listWorkspaceAudit);
