import { Problem } from "@fleet/contracts";
import { and, type Database, eq, type Tx, workspaces } from "@fleet/db";

/** The workspace, if it is the tenant's; another tenant's workspace is as absent as a missing one. */
export async function requireWorkspace(
  db: Database | Tx,
  tenantId: string,
  workspaceId: string,
): Promise<void> {
  const [row] = await db
    .select({ id: workspaces.id })
    .from(workspaces)
    .where(and(eq(workspaces.id, workspaceId), eq(workspaces.tenantId, tenantId)));
  if (row === undefined) throw new Problem("UZ-WORKSPACE-002", { detail: `No workspace ${workspaceId}.` });
}
