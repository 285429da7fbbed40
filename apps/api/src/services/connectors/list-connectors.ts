import { and, connectors, eq } from "@fleet/db";
import type { ServiceContext } from "../shared/context.ts";
import { catalogItems } from "./catalog.ts";

/** The catalog, `connected` meaning connected in any of the tenant's workspaces. */
export async function listConnectors(ctx: ServiceContext, tenantId: string) {
  const rows = await ctx.db
    .select({ provider: connectors.provider })
    .from(connectors)
    .where(and(eq(connectors.tenantId, tenantId), eq(connectors.status, "connected")));
  const connected = new Set(rows.map((row) => row.provider));
  return { items: catalogItems(ctx.config, connected) };
}
