import { asc, connectorRoutes, eq } from "@fleet/db";
import type { ServiceContext } from "../shared/context.ts";
import { type RouteScope, routeConnector, toRouteItem } from "./routes.ts";

/** The connector's channel routes, oldest first; none when it is not connected. */
export async function listRoutes(ctx: ServiceContext, scope: RouteScope) {
  const connector = await routeConnector(ctx, scope);
  if (connector === null) return { items: [] };
  const rows = await ctx.db
    .select()
    .from(connectorRoutes)
    .where(eq(connectorRoutes.connectorId, connector.id))
    .orderBy(asc(connectorRoutes.createdAt), asc(connectorRoutes.channelId));
  return { items: rows.map(toRouteItem) };
}
