import { and, connectorRoutes, eq } from "@fleet/db";
import { type Actor, recordAudit } from "../shared/audit.ts";
import type { ServiceContext } from "../shared/context.ts";
import { connectorOf, type Where } from "./route-view.ts";

/** Stops routing a channel. Idempotent. */
export async function deleteRoute(ctx: ServiceContext, actor: Actor, where: Where & { channelId: string }) {
  const connector = await connectorOf(ctx, where);
  if (connector === null) return;
  const now = ctx.now();
  await ctx.db.transaction(async (tx) => {
    const removed = await tx
      .delete(connectorRoutes)
      .where(
        and(eq(connectorRoutes.connectorId, connector.id), eq(connectorRoutes.channelId, where.channelId)),
      )
      .returning();
    if (removed.length === 0) return;
    await recordAudit(tx, {
      actor,
      at: now,
      tenantId: where.tenantId,
      workspaceId: where.workspaceId,
      action: "connector.unroute",
      target: `connector:${where.provider}`,
      details: { channel_id: where.channelId },
    });
  });
}
