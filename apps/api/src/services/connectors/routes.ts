import { and, connectors, eq } from "@fleet/db";
import type { ServiceContext } from "../shared/context.ts";
import { requireWorkspace } from "../shared/tenancy.ts";
import { requireChatProvider } from "./catalog.ts";

/** Where a channel route lives: a chat provider's connector in one workspace of the tenant's. */
export type RouteScope = { tenantId: string; workspaceId: string; provider: string };

/** The scope's connector (null when the provider is not connected there); refuses another tenant's workspace. */
export async function routeConnector(ctx: ServiceContext, scope: RouteScope) {
  requireChatProvider(scope.provider);
  await requireWorkspace(ctx.db, scope.tenantId, scope.workspaceId);
  const [row] = await ctx.db
    .select({ id: connectors.id })
    .from(connectors)
    .where(and(eq(connectors.workspaceId, scope.workspaceId), eq(connectors.provider, scope.provider)));
  return row ?? null;
}

/** A route as the API shows it. */
export const toRouteItem = (row: { channelId: string; fleetId: string; createdAt: number }) => ({
  channel_id: row.channelId,
  fleet_id: row.fleetId,
  created_at: row.createdAt,
});
