import { connectors, eq } from "@fleet/db";
import type { ServiceContext } from "../shared/context.ts";
import { requireWorkspace } from "../shared/tenancy.ts";
import { catalogItems } from "./catalog.ts";

/** The catalog as one workspace sees it (a bare array, as existing clients read it). */
export async function listWorkspaceConnectors(ctx: ServiceContext, tenantId: string, workspaceId: string) {
  await requireWorkspace(ctx.db, tenantId, workspaceId);
  const rows = await ctx.db
    .select({ provider: connectors.provider, status: connectors.status })
    .from(connectors)
    .where(eq(connectors.workspaceId, workspaceId));
  const connected = new Set(rows.filter((row) => row.status === "connected").map((row) => row.provider));
  return catalogItems(ctx.config, connected);
}
