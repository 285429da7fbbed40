import { and, auditEvents, eq } from "@fleet/db";
import type { ServiceContext } from "../shared/context.ts";
import { requireWorkspace } from "../shared/tenancy.ts";
import { type AuditQuery, auditPage } from "./audit-page.ts";

/** A workspace's audited acts. */
export async function listWorkspaceAudit(
  ctx: ServiceContext,
  tenantId: string,
  input: AuditQuery & { workspace_id: string },
) {
  await requireWorkspace(ctx.db, tenantId, input.workspace_id);
  return auditPage(
    ctx,
    and(eq(auditEvents.tenantId, tenantId), eq(auditEvents.workspaceId, input.workspace_id))!,
    `ws:${input.workspace_id}`,
    input,
  );
}
