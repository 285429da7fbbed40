import { Problem } from "@fleet/contracts";
import { and, connectors, eq, workspaces } from "@fleet/db";
import { newId } from "../../runtime/ids.ts";
import { type Actor, recordAudit } from "../shared/audit.ts";
import type { ServiceContext } from "../shared/context.ts";
import { uniqueViolation } from "../shared/errors.ts";
import { requireWorkspace } from "../shared/tenancy.ts";
import { PROVIDERS, type ProviderEntry, requireChatProvider, requireProvider } from "./catalog.ts";
import { probeDatadogKey } from "./datadog-client.ts";
import { issueState, spendState } from "./oauth-state.ts";
import { authorizeUrl, callSlack, exchangeCode } from "./slack-client.ts";
import { connectorVaultName, markReconnectRequired, openToken } from "./token.ts";
import { VendorFailure, vendorProblem } from "./vendor-http.ts";

/** The catalog, `connected` meaning connected in any of the tenant's workspaces. */
export async function listCatalog(ctx: ServiceContext, tenantId: string) {
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

/** The catalog as one workspace sees it (a bare array, as existing clients read it). */
export async function listWorkspaceConnectors(ctx: ServiceContext, tenantId: string, workspaceId: string) {
  await requireWorkspace(ctx.db, tenantId, workspaceId);
  const rows = await ctx.db
    .select({ provider: connectors.provider, status: connectors.status })
    .from(connectors)
    .where(eq(connectors.workspaceId, workspaceId));
  const connected = new Set(rows.filter((row) => row.status === "connected").map((row) => row.provider));
  return PROVIDERS.map((entry) => ({
    id: entry.id,
    display_name: entry.display_name,
    archetype: entry.archetype,
    configured: entry.configured(ctx.config),
    connected: connected.has(entry.id),
  }));
}

/**
 * Starts a connect. A chat provider: the vendor's consent URL with a signed single-use state bound to
 * workspace and caller. An API-key provider: the key is probed and, when the vendor accepts it, sealed
 * and stored; the connector's state is answered.
 */
export async function startConnect(
  ctx: ServiceContext,
  actor: Actor,
  tenantId: string,
  workspaceId: string,
  provider: string,
  apiKey?: string | undefined,
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
  const { state, expiresAt } = await issueState(ctx, workspaceId, provider, actor.principal);
  return { authorize_url: authorizeUrl(ctx.config, state), state, expires_at: expiresAt };
}

/** Asks the API-key provider's vendor whether the key is good (the only API-key provider: Datadog). */
async function probeKey(ctx: ServiceContext, entry: ProviderEntry, apiKey: string): Promise<void> {
  if (entry.id === "datadog") return probeDatadogKey(ctx.config, apiKey);
  throw new Error(`no key probe for ${entry.id}`);
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

/**
 * The vendor's redirect: spends the state, exchanges the code for a token, seals it, and answers where
 * the browser goes next (the console's Connectors page of the workspace).
 */
export async function completeConnect(
  ctx: ServiceContext,
  requestId: string,
  provider: string,
  query: { code?: string | undefined; state?: string | undefined; error?: string | undefined },
) {
  requireChatProvider(provider);
  const { workspaceId, caller } = await spendState(ctx, provider, query.state);
  const back = (outcome: string) =>
    `${ctx.config.consoleUrl}/connectors?workspace=${encodeURIComponent(workspaceId)}&${outcome}=${provider}`;
  if (query.error !== undefined || query.code === undefined || query.code === "") {
    return {
      status: "declined" as const,
      workspace_id: workspaceId,
      provider,
      team: null,
      location: back("declined"),
    };
  }
  let installation: Awaited<ReturnType<typeof exchangeCode>>;
  try {
    installation = await exchangeCode(ctx.config, query.code);
  } catch (error) {
    if (error instanceof VendorFailure) throw vendorProblem(error, "UZ-SLK-022");
    throw error;
  }
  const [workspace] = await ctx.db
    .select({ tenantId: workspaces.tenantId })
    .from(workspaces)
    .where(eq(workspaces.id, workspaceId));
  if (workspace === undefined)
    throw new Problem("UZ-WORKSPACE-002", { detail: `No workspace ${workspaceId}.` });
  const sealed = ctx.vault.seal(workspaceId, connectorVaultName(provider), {
    access_token: installation.accessToken,
  });
  const now = ctx.now();
  const values = {
    status: "connected",
    teamId: installation.team.id,
    teamName: installation.team.name,
    botUserId: installation.botUserId,
    ...sealed,
    connectedBy: caller,
    updatedAt: now,
  };
  try {
    await ctx.db.transaction(async (tx) => {
      await tx
        .insert(connectors)
        .values({
          id: newId(now),
          tenantId: workspace.tenantId,
          workspaceId,
          provider,
          ...values,
          createdAt: now,
        })
        .onConflictDoUpdate({ target: [connectors.workspaceId, connectors.provider], set: values });
      await recordAudit(tx, {
        actor: { principal: caller, requestId },
        at: now,
        tenantId: workspace.tenantId,
        workspaceId,
        action: "connector.connect",
        target: `connector:${provider}`,
        details: { team_id: installation.team.id },
      });
    });
  } catch (error) {
    if (uniqueViolation(error, "connectors_provider_team_key"))
      throw new Problem("UZ-CONN-001", {
        detail: "That team is connected to another workspace; disconnect it there first.",
      });
    throw error;
  }
  return {
    status: "connected" as const,
    workspace_id: workspaceId,
    provider,
    team: installation.team,
    location: back("connected"),
  };
}

/**
 * A workspace connector's status. A connected one's token is checked with the vendor (`auth.test`; an
 * API-key connector's key with the key check): a revoked token or key moves it to `reconnect_required`;
 * a vendor that does not answer leaves what is stored.
 */
export async function connectorStatus(
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

/** Disconnects: removes the connector, its sealed token and its routes. Idempotent. */
export async function disconnect(
  ctx: ServiceContext,
  actor: Actor,
  tenantId: string,
  workspaceId: string,
  provider: string,
): Promise<void> {
  requireProvider(provider);
  await requireWorkspace(ctx.db, tenantId, workspaceId);
  const now = ctx.now();
  await ctx.db.transaction(async (tx) => {
    const removed = await tx
      .delete(connectors)
      .where(and(eq(connectors.workspaceId, workspaceId), eq(connectors.provider, provider)))
      .returning({ teamId: connectors.teamId });
    if (removed.length === 0) return;
    await recordAudit(tx, {
      actor,
      at: now,
      tenantId,
      workspaceId,
      action: "connector.disconnect",
      target: `connector:${provider}`,
      details: { team_id: removed[0]!.teamId },
    });
  });
}
