import { and, approvalGates, eq, fleets } from "@fleet/db";
import type { ServiceContext } from "../shared/context.ts";
import { requireWorkspace } from "../shared/tenancy.ts";
import { gateNotFound, toGateItem, withFleetName } from "./gate-view.ts";
import { approvalsOf } from "./votes.ts";

export async function getApproval(
  ctx: ServiceContext,
  tenantId: string,
  workspaceId: string,
  gateId: string,
) {
  await requireWorkspace(ctx.db, tenantId, workspaceId);
  const [row] = await ctx.db
    .select(withFleetName)
    .from(approvalGates)
    .leftJoin(fleets, eq(fleets.id, approvalGates.fleetId))
    .where(and(eq(approvalGates.id, gateId), eq(approvalGates.workspaceId, workspaceId)));
  if (row === undefined) throw gateNotFound(gateId);
  const approvals = await approvalsOf(ctx.db, [gateId]);
  return toGateItem(row.gate, approvals.get(gateId) ?? [], row.fleetName);
}
