import { Problem } from "@fleet/contracts";
import { and, asc, connectorRoutes, connectors, eq } from "@fleet/db";
import { type Actor, recordAudit } from "../shared/audit.ts";
import type { ServiceContext } from "../shared/context.ts";
import { requireFleet, requireWorkspace } from "../shared/tenancy.ts";
import { requireChatProvider } from "./catalog.ts";

type Where = { tenantId: string; workspaceId: string; provider: string };

async function connectorOf(ctx: ServiceContext, where: Where) {
  requireChatProvider(where.provider);
  await requireWorkspace(ctx.db, where.tenantId, where.workspaceId);
  const [row] = await ctx.db
    .select({ id: connectors.id })
    .from(connectors)
    .where(and(eq(connectors.workspaceId, where.workspaceId), eq(connectors.provider, where.provider)));
  return row ?? null;
}

const view = (row: { channelId: string; fleetId: string; createdAt: number }) => ({
  channel_id: row.channelId,
  fleet_id: row.fleetId,
  created_at: row.createdAt,
});

/** The connector's channel routes, oldest first; none when it is not connected. */
export async function listRoutes(ctx: ServiceContext, where: Where) {
  const connector = await connectorOf(ctx, where);
  if (connector === null) return { items: [] };
  const rows = await ctx.db
    .select()
    .from(connectorRoutes)
    .where(eq(connectorRoutes.connectorId, connector.id))
    .orderBy(asc(connectorRoutes.createdAt), asc(connectorRoutes.channelId));
  return { items: rows.map(view) };
}

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
