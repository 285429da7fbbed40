import { type OperatorScope, operatorScopes, Problem } from "@fleet/contracts";
import { newId } from "../../runtime/ids.ts";
import { insertCliCredential, signCliCredential } from "../cli-credentials/issuance.ts";
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
    const credential = await insertCliCredential(
      ctx.db,
      { ...member, clientName: "fleetctl session", clientHost: null, ttlSeconds },
      now,
    );
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
