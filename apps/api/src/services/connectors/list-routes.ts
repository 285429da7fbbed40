import { asc, connectorRoutes, eq } from "@fleet/db";
import type { ServiceContext } from "../shared/context.ts";
import { connectorOf, view, type Where } from "./route-view.ts";

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
