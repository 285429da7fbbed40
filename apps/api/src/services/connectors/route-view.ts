import { and, connectors, eq } from "@fleet/db";
import type { ServiceContext } from "../shared/context.ts";
import { requireWorkspace } from "../shared/tenancy.ts";
import { requireChatProvider } from "./catalog.ts";

export type Where = { tenantId: string; workspaceId: string; provider: string };

export async function connectorOf(ctx: ServiceContext, where: Where) {
  requireChatProvider(where.provider);
  await requireWorkspace(ctx.db, where.tenantId, where.workspaceId);
  const [row] = await ctx.db
    .select({ id: connectors.id })
    .from(connectors)
    .where(and(eq(connectors.workspaceId, where.workspaceId), eq(connectors.provider, where.provider)));
  return row ?? null;
}

export const view = (row: { channelId: string; fleetId: string; createdAt: number }) => ({
  channel_id: row.channelId,
  fleet_id: row.fleetId,
  created_at: row.createdAt,
});
