import { Problem } from "@fleet/contracts";
import { and, type Database, eq, fleets, type Tx, workspaces } from "@fleet/db";

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

export function fleetNotFound(fleetId: string): Problem {
  return new Problem("UZ-FLEET-001", { detail: `No fleet ${fleetId} in this workspace.` });
}

/** A fleet that is paused, stopped or killed takes no messages. */
export function notAccepting(status: string): Problem {
  return new Problem("UZ-FLEET-003", {
    detail: `The fleet is ${status} and does not accept messages; resume it first.`,
    current_state: status,
  });
}

/**
 * The fleet, if it is in the workspace and the workspace is the tenant's. A miss says which is absent:
 * the workspace (UZ-WORKSPACE-002, as for any workspace route) or the fleet (UZ-FLEET-001); another
 * tenant's workspace or fleet reads exactly as an absent one.
 */
export async function requireFleet(
  db: Database | Tx,
  tenantId: string,
  workspaceId: string,
  fleetId: string,
  options: { forUpdate?: boolean } = {},
) {
  const query = db
    .select()
    .from(fleets)
    .where(and(eq(fleets.id, fleetId), eq(fleets.workspaceId, workspaceId), eq(fleets.tenantId, tenantId)));
  const [row] = options.forUpdate ? await query.for("update") : await query;
  if (row !== undefined) return row;
  await requireWorkspace(db, tenantId, workspaceId);
  throw fleetNotFound(fleetId);
}
