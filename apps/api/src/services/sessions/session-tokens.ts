import { type OperatorScope, operatorScopes, Problem } from "@fleet/contracts";
import { newId, newRequestId } from "../../runtime/ids.ts";
import { insertCliCredential, signCliCredential } from "../cli-credentials/issuance.ts";
import { recordAudit } from "../shared/audit.ts";
import type { ServiceContext } from "../shared/context.ts";
import { membershipOf } from "./sign-in-membership.ts";

/** A session token for a member: a command-line credential, or a console session. */
export async function issueSession(
  ctx: ServiceContext,
  input: { email: string; tenantId?: string; ttlSeconds?: number; kind: "session" | "cli" },
): Promise<{ token: string; expires_at: number }> {
  const member = await membershipOf(ctx, input.email, input.tenantId);
  const ttlSeconds = input.ttlSeconds ?? ctx.config.sessionTtlSeconds;
  const now = ctx.now();
  if (input.kind === "cli") {
    // A command-line credential has a row, so its person can list and revoke it like a signed-in one.
    const credential = await ctx.db.transaction(async (tx) => {
      const credential = await insertCliCredential(
        tx,
        { ...member, clientName: "fleetctl session", clientHost: null, ttlSeconds },
        now,
      );
      // Issued at the host's terminal (`fleetctl session`), in no HTTP request: the command gets an id.
      await recordAudit(tx, {
        actor: { principal: "operator:fleetctl", requestId: newRequestId() },
        at: now,
        tenantId: member.tenantId,
        workspaceId: null,
        action: "cli_credential.issue",
        target: `cli_credential:${credential.id}`,
        details: { user_id: member.userId, client_name: "fleetctl session", scopes: member.scopes },
      });
      return credential;
    });
    const { token, expiresAt } = await signCliCredential(
      ctx,
      { ...member, credentialId: credential.id, ttlSeconds },
      now,
    );
    return { token, expires_at: expiresAt };
  }
  const { token, expiresAt } = await ctx.sessions.sign(
    {
      sub: member.userId,
      kind: input.kind,
      tenantId: member.tenantId,
      scopes: member.scopes,
      sessionId: newId(now),
    },
    ttlSeconds,
    now,
  );
  return { token, expires_at: expiresAt };
}

/** An operator token carrying operator scopes; it acts in no tenant. */
export async function issueOperatorToken(
  ctx: ServiceContext,
  input: { scopes: string[]; ttlSeconds?: number; subject?: string },
): Promise<{ token: string; expires_at: number }> {
  const unknown = input.scopes.filter(
    (scope) => !(operatorScopes as readonly string[]).includes(scope) && !/^[a-z-]+:\*$/.test(scope),
  );
  if (unknown.length > 0)
    throw new Problem("UZ-REQ-001", { detail: `Not operator scopes: ${unknown.join(", ")}.` });
  const { token, expiresAt } = await ctx.sessions.sign(
    {
      sub: input.subject ?? "operator",
      kind: "operator",
      tenantId: null,
      scopes: input.scopes as OperatorScope[],
    },
    input.ttlSeconds ?? ctx.config.sessionTtlSeconds,
    ctx.now(),
  );
  return { token, expires_at: expiresAt };
}
