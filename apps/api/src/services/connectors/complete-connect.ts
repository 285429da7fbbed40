import { Problem } from "@fleet/contracts";
import { connectors, eq, workspaces } from "@fleet/db";
import { newId } from "../../runtime/ids.ts";
import { recordAudit } from "../shared/audit.ts";
import type { ServiceContext } from "../shared/context.ts";
import { uniqueViolation } from "../shared/errors.ts";
import { type CallbackBrowser, requireStartingBrowser } from "./browser-binding.ts";
import { requireChatProvider } from "./catalog.ts";
import { spendState, verifyState } from "./oauth-state.ts";
import { exchangeCode } from "./slack-client.ts";
import { connectorVaultName } from "./token.ts";
import { VendorFailure, vendorProblem } from "./vendor-http.ts";

/**
 * The vendor's redirect: checks it came back to the browser that started the connect, signed in as the
 * person who did (else 403 UZ-CONN-010, spending nothing), spends the state, exchanges the code for a token, seals it, and answers where
 * the browser goes next (the console's Connectors page of the workspace).
 */
export async function completeConnect(
  ctx: ServiceContext,
  requestId: string,
  provider: string,
  query: { code?: string | undefined; state?: string | undefined; error?: string | undefined },
  browser: CallbackBrowser,
) {
  requireChatProvider(provider);
  const claims = verifyState(ctx, provider, query.state);
  await requireStartingBrowser(browser, claims.b, claims.c);
  const { workspaceId, caller } = await spendState(ctx, provider, claims);
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
