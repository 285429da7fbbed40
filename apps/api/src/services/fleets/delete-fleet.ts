import { and, eq, fleets } from "@fleet/db";
import { autoKillFleetGates } from "../approvals/sweep.ts";
import { retireFleetSpend } from "../billing/account.ts";
import { type Actor, recordAudit } from "../shared/audit.ts";
import type { ServiceContext } from "../shared/context.ts";
import { gatesResolved } from "../shared/frames.ts";
import { fleetNotFound, requireWorkspace } from "../shared/tenancy.ts";

/**
 * Deletes the fleet; its events, memories and schedules go with it (foreign keys cascade). Its open
 * approval gates stay, closed as `auto_killed`, so a runner waiting on one reads the closure.
 */
export async function deleteFleet(
  ctx: ServiceContext,
  actor: Actor,
  tenantId: string,
  workspaceId: string,
  fleetId: string,
) {
  const row = await ctx.db.transaction(async (tx) => {
    const [deleted] = await tx
      .delete(fleets)
      .where(and(eq(fleets.id, fleetId), eq(fleets.workspaceId, workspaceId), eq(fleets.tenantId, tenantId)))
      .returning({ id: fleets.id, name: fleets.name, chargedNanos: fleets.chargedNanos });
    if (deleted === undefined) return undefined;
    await recordAudit(tx, {
      actor,
      at: ctx.now(),
      tenantId,
      workspaceId,
      action: "fleet.delete",
      target: `fleet:${deleted.id}`,
      details: { name: deleted.name },
    });
    // Its charges leave with its row: the account keeps them, so the tenant's balance does not move.
    await retireFleetSpend(tx, tenantId, deleted.chargedNanos, ctx.now());
    return { ...deleted, killed: await autoKillFleetGates(tx, deleted.id, "deleted", ctx.now()) };
  });
  if (row !== undefined) gatesResolved(ctx, row.killed);
  if (row !== undefined) return;
  await requireWorkspace(ctx.db, tenantId, workspaceId);
  throw fleetNotFound(fleetId);
}
