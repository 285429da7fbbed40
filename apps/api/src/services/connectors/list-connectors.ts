import { and, connectors, eq } from "@fleet/db";
import type { ServiceContext } from "../shared/context.ts";
import { PROVIDERS } from "./catalog.ts";

/** The catalog, `connected` meaning connected in any of the tenant's workspaces. */
export async function listConnectors(ctx: ServiceContext, tenantId: string) {
  const rows = await ctx.db
    .select({ provider: connectors.provider })
    .from(connectors)
    .where(and(eq(connectors.tenantId, tenantId), eq(connectors.status, "connected")));
  const connected = new Set(rows.map((row) => row.provider));
  return {
    items: PROVIDERS.map((entry) => ({
      id: entry.id,
      display_name: entry.display_name,
      archetype: entry.archetype,
      configured: entry.configured(ctx.config),
      connected: connected.has(entry.id),
    })),
  };
}
