import { resource } from "../../trpc.ts";
import { listTenantAudit } from "./list-tenant-audit.ts";
import { listWorkspaceAudit } from "./list-workspace-audit.ts";

export const auditRouter = resource(listTenantAudit, listWorkspaceAudit);
