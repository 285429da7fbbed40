import { Problem } from "@fleet/contracts";
import { connectors } from "@fleet/db";
import { newId } from "../../runtime/ids.ts";
import { type Actor, recordAudit } from "../shared/audit.ts";
import type { ServiceContext } from "../shared/context.ts";
import { requireWorkspace } from "../shared/tenancy.ts";
import { type ProviderEntry, requireProvider } from "./catalog.ts";
import { probeKey } from "./key-probe.ts";
import { issueState } from "./oauth-state.ts";
import { authorizeUrl } from "./slack-client.ts";
import { connectorVaultName } from "./token.ts";
import { VendorFailure } from "./vendor-http.ts";

/**
 * Starts a connect. A chat provider: the vendor's consent URL with a signed single-use state bound to
 * workspace, caller and the starting browser (`browserHash`, whose nonce the caller sends in a cookie). An API-key provider: the key is probed and, when the vendor accepts it, sealed
 * and stored; the connector's state is answered.
 */
export async function connectConnector(
  ctx: ServiceContext,
  actor: Actor,
  tenantId: string,
  workspaceId: string,
  provider: string,
  apiKey: string | undefined,
  browserHash: string,
) {
  const entry = requireProvider(provider);
  await requireWorkspace(ctx.db, tenantId, workspaceId);
  if (entry.archetype === "api_key") return connectWithKey(ctx, actor, tenantId, workspaceId, entry, apiKey);
  if (apiKey !== undefined)
    throw new Problem("UZ-REQ-001", {
      detail: `api_key is not accepted for ${entry.display_name}: it connects through the vendor's consent page.`,
    });
  if (!entry.configured(ctx.config))
    throw new Problem("UZ-CONN-001", {
      detail: `${entry.display_name} is not configured on this deployment (its app's client id and secrets).`,
    });
  // The token will be sealed: without a master key (503 UZ-VAULT-002) say so now, not after the consent.
  ctx.vault.seal(workspaceId, connectorVaultName(provider), { probe: true });
  const { state, expiresAt } = await issueState(ctx, workspaceId, provider, actor.principal, browserHash);
  return { authorize_url: authorizeUrl(ctx.config, state), state, expires_at: expiresAt };
}

/**
 * Connects an API-key provider: the vendor's key check first (400 UZ-CONN-005 when it refuses the key,
 * 502 UZ-CONN-003 when it does not answer), and only then is the key sealed and stored. Reconnecting
 * replaces the stored key.
 */
async function connectWithKey(
  ctx: ServiceContext,
  actor: Actor,
  tenantId: string,
  workspaceId: string,
  entry: ProviderEntry,
  apiKey: string | undefined,
) {
  if (apiKey === undefined)
    throw new Problem("UZ-REQ-001", { detail: `api_key is required to connect ${entry.display_name}.` });
  // The key will be sealed: without a master key (503 UZ-VAULT-002) say so before asking the vendor.
  ctx.vault.seal(workspaceId, connectorVaultName(entry.id), { probe: true });
  try {
    await probeKey(ctx, entry, apiKey);
  } catch (error) {
    if (!(error instanceof VendorFailure)) throw error;
    if (error.kind === "unreachable")
      throw new Problem("UZ-CONN-003", {
        detail: `${entry.display_name} did not answer the key check in time; nothing was stored. Try again.`,
      });
    throw new Problem("UZ-CONN-005", {
      detail: `${entry.display_name} refused the API key (${error.reason}); nothing was stored.`,
    });
  }
  const sealed = ctx.vault.seal(workspaceId, connectorVaultName(entry.id), { api_key: apiKey });
  const now = ctx.now();
  const values = {
    status: "connected",
    teamId: null,
    teamName: null,
    botUserId: null,
    ...sealed,
    connectedBy: actor.principal,
    updatedAt: now,
  };
  await ctx.db.transaction(async (tx) => {
    await tx
      .insert(connectors)
      .values({ id: newId(now), tenantId, workspaceId, provider: entry.id, ...values, createdAt: now })
      .onConflictDoUpdate({ target: [connectors.workspaceId, connectors.provider], set: values });
    await recordAudit(tx, {
      actor,
      at: now,
      tenantId,
      workspaceId,
      action: "connector.connect",
      target: `connector:${entry.id}`,
      details: { archetype: "api_key" },
    });
  });
  return { provider: entry.id, status: "connected" as const, team: null, connected_at: now };
}
