import { and, connectors, eq } from "@fleet/db";
import type { ServiceContext } from "../shared/context.ts";
import { requireWorkspace } from "../shared/tenancy.ts";
import { requireProvider } from "./catalog.ts";
import { probeKey } from "./key-probe.ts";
import { callSlack } from "./slack-client.ts";
import { markReconnectRequired, openToken } from "./token.ts";
import { VendorFailure } from "./vendor-http.ts";

/**
 * A workspace connector's status. A connected one's token is checked with the vendor (`auth.test`; an
 * API-key connector's key with the key check): a revoked token or key moves it to `reconnect_required`;
 * a vendor that does not answer leaves what is stored.
 */
export async function getConnector(
  ctx: ServiceContext,
  tenantId: string,
  workspaceId: string,
  provider: string,
) {
  const entry = requireProvider(provider);
  await requireWorkspace(ctx.db, tenantId, workspaceId);
  const [row] = await ctx.db
    .select()
    .from(connectors)
    .where(and(eq(connectors.workspaceId, workspaceId), eq(connectors.provider, provider)));
  if (row === undefined)
    return { provider, status: "not_connected" as const, team: null, connected_at: null };
  let status = row.status as "connected" | "reconnect_required";
  if (status === "connected") {
    try {
      if (entry.archetype === "api_key") await probeKey(ctx, entry, openToken(ctx, row));
      else await callSlack(ctx.config, "auth.test", { token: openToken(ctx, row) });
    } catch (error) {
      if (!(error instanceof VendorFailure)) throw error;
      if (error.revoked || (entry.archetype === "api_key" && error.kind === "refused")) {
        await markReconnectRequired(ctx, row.id);
        status = "reconnect_required";
      }
    }
  }
  return {
    provider,
    status,
    team: row.teamId === null ? null : { id: row.teamId, name: row.teamName ?? row.teamId },
    connected_at: row.updatedAt,
  };
}
