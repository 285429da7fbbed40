import { and, connectorRoutes, eq } from "@fleet/db";
import { type Actor, recordAudit } from "../shared/audit.ts";
import type { ServiceContext } from "../shared/context.ts";
import { type RouteScope, routeConnector } from "./routes.ts";

/** Stops routing a channel. Idempotent. */
export async function deleteRoute(
  ctx: ServiceContext,
  actor: Actor,
  scope: RouteScope & { channelId: string },
) {
  const connector = await routeConnector(ctx, scope);
  if (connector === null) return;
  const now = ctx.now();
  await ctx.db.transaction(async (tx) => {
    const removed = await tx
      .delete(connectorRoutes)
      .where(
        and(eq(connectorRoutes.connectorId, connector.id), eq(connectorRoutes.channelId, scope.channelId)),
      )
      .returning();
    if (removed.length === 0) return;
    await recordAudit(tx, {
      actor,
      at: now,
      tenantId: scope.tenantId,
      workspaceId: scope.workspaceId,
      action: "connector.unroute",
      target: `connector:${scope.provider}`,
      details: { channel_id: scope.channelId },
    });
  });
}
