import { Problem } from "@fleet/contracts";
import { connectorRoutes } from "@fleet/db";
import { type Actor, recordAudit } from "../shared/audit.ts";
import type { ServiceContext } from "../shared/context.ts";
import { requireFleet } from "../shared/tenancy.ts";
import { connectorOf, view, type Where } from "./route-view.ts";

/** Routes a channel to a fleet of the workspace, replacing the channel's fleet if it had one. */
export async function setRoute(
  ctx: ServiceContext,
  actor: Actor,
  where: Where & { channelId: string; fleetId: string },
) {
  const connector = await connectorOf(ctx, where);
  if (connector === null)
    throw new Problem("UZ-CONN-001", { detail: `Connect ${where.provider} in this workspace first.` });
  await requireFleet(ctx.db, where.tenantId, where.workspaceId, where.fleetId);
  const now = ctx.now();
  const row = await ctx.db.transaction(async (tx) => {
    const [stored] = await tx
      .insert(connectorRoutes)
      .values({
        connectorId: connector.id,
        channelId: where.channelId,
        fleetId: where.fleetId,
        createdAt: now,
      })
      .onConflictDoUpdate({
        target: [connectorRoutes.connectorId, connectorRoutes.channelId],
        set: { fleetId: where.fleetId },
      })
      .returning();
    await recordAudit(tx, {
      actor,
      at: now,
      tenantId: where.tenantId,
      workspaceId: where.workspaceId,
      action: "connector.route",
      target: `connector:${where.provider}`,
      details: { channel_id: where.channelId, fleet_id: where.fleetId },
    });
    return stored!;
  });
  return view(row);
}
