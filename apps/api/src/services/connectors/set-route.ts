import { Problem } from "@fleet/contracts";
import { connectorRoutes } from "@fleet/db";
import { type Actor, recordAudit } from "../shared/audit.ts";
import type { ServiceContext } from "../shared/context.ts";
import { requireFleet } from "../shared/tenancy.ts";
import { type RouteScope, routeConnector, toRouteItem } from "./routes.ts";

/** Routes a channel to a fleet of the workspace, replacing the channel's fleet if it had one. */
export async function setRoute(
  ctx: ServiceContext,
  actor: Actor,
  scope: RouteScope & { channelId: string; fleetId: string },
) {
  const connector = await routeConnector(ctx, scope);
  if (connector === null)
    throw new Problem("UZ-CONN-001", { detail: `Connect ${scope.provider} in this workspace first.` });
  await requireFleet(ctx.db, scope.tenantId, scope.workspaceId, scope.fleetId);
  const now = ctx.now();
  const row = await ctx.db.transaction(async (tx) => {
    const [stored] = await tx
      .insert(connectorRoutes)
      .values({
        connectorId: connector.id,
        channelId: scope.channelId,
        fleetId: scope.fleetId,
        createdAt: now,
      })
      .onConflictDoUpdate({
        target: [connectorRoutes.connectorId, connectorRoutes.channelId],
        set: { fleetId: scope.fleetId },
      })
      .returning();
    await recordAudit(tx, {
      actor,
      at: now,
      tenantId: scope.tenantId,
      workspaceId: scope.workspaceId,
      action: "connector.route",
      target: `connector:${scope.provider}`,
      details: { channel_id: scope.channelId, fleet_id: scope.fleetId },
    });
    return stored!;
  });
  return toRouteItem(row);
}
