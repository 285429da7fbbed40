import { connectors, eq } from "@fleet/db";
import type { ServiceContext } from "../shared/context.ts";

/** The name the vault binds a connector's token to; `#` starts no secret name, so no secret's row opens it. */
export function connectorVaultName(provider: string): string {
  return `#connector:${provider}`;
}

/** A connector row's sealed token (an API-key connector's key), opened for a vendor call; never served or logged. */
export function openToken(
  ctx: ServiceContext,
  row: { workspaceId: string; provider: string; wrappedKey: string; ciphertext: string },
): string {
  const opened = ctx.vault.open(row.workspaceId, connectorVaultName(row.provider), row);
  const token = opened.access_token ?? opened.api_key;
  return typeof token === "string" ? token : "";
}

/** The vendor said the token is revoked: the connector shows `reconnect_required` until connected again. */
export async function markReconnectRequired(ctx: ServiceContext, connectorId: string): Promise<void> {
  await ctx.db
    .update(connectors)
    .set({ status: "reconnect_required", updatedAt: ctx.now() })
    .where(eq(connectors.id, connectorId));
}
