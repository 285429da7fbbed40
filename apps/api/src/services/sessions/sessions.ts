import { randomBytes } from "node:crypto";
import { type OperatorScope, operatorScopes, Problem } from "@fleet/contracts";
import { and, type Database, eq, gt, isNull, memberships, signInLinks, type Tx, users } from "@fleet/db";
import { sha256Hex } from "../../auth/tokens.ts";
import { newId } from "../../runtime/ids.ts";
import { insertCliCredential, signCliCredential } from "../cli-credentials/issuance.ts";
import type { ServiceContext } from "../context.ts";
import { devOwnerOperatorToken } from "./dev-operator.ts";

const LINK_TTL_MS = 10 * 60_000;

/** The one membership a person signs into: the named tenant, or their only one. */
async function membershipOf(ctx: ServiceContext, email: string, tenantId?: string) {
  const rows = await ctx.db
    .select({ userId: users.id, tenantId: memberships.tenantId, scopes: memberships.scopes })
    .from(users)
    .innerJoin(memberships, eq(memberships.userId, users.id))
    .where(
      tenantId === undefined
        ? eq(users.email, email.trim().toLowerCase())
        : and(eq(users.email, email.trim().toLowerCase()), eq(memberships.tenantId, tenantId)),
    );
  if (rows.length === 0)
    throw new Problem("UZ-REQ-001", { detail: `${email} is not a member of any such tenant.` });
  if (rows.length > 1) {
    throw new Problem("UZ-REQ-001", {
      detail: `${email} belongs to several tenants; name one with --tenant-id.`,
    });
  }
  return rows[0]!;
}

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
    { sub: member.userId, kind: input.kind, tenantId: member.tenantId, scopes: member.scopes },
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

/** A one-time console sign-in link, valid for ten minutes. */
export async function createSignInLink(
  ctx: ServiceContext,
  input: { email: string; tenantId?: string },
): Promise<{ url: string; expires_at: number }> {
  const member = await membershipOf(ctx, input.email, input.tenantId);
  return insertSignInLink(ctx.db, ctx.config.consoleUrl, member, ctx.now());
}

/**
 * The step of `createSignInLink` that writes the link, for a caller's transaction (an invitation answers
 * the new member's link in the transaction that adds them).
 */
export async function insertSignInLink(
  db: Database | Tx,
  consoleUrl: string,
  member: { tenantId: string; userId: string },
  now: number,
): Promise<{ url: string; expires_at: number }> {
  const token = randomBytes(32).toString("base64url");
  const expiresAt = now + LINK_TTL_MS;
  await db.insert(signInLinks).values({
    id: newId(now),
    tenantId: member.tenantId,
    userId: member.userId,
    tokenHash: sha256Hex(token),
    expiresAt,
  });
  return { url: `${consoleUrl}/auth/link?token=${token}`, expires_at: expiresAt };
}

/**
 * Spends a sign-in link (once, before it expires) for a console session token, and in dev mode, for an
 * owner, an operator token beside it (dev-operator.ts).
 */
export async function exchangeSignInLink(ctx: ServiceContext, token: string) {
  const now = ctx.now();
  const [link] = await ctx.db
    .update(signInLinks)
    .set({ usedAt: now })
    .where(
      and(
        eq(signInLinks.tokenHash, sha256Hex(token)),
        isNull(signInLinks.usedAt),
        gt(signInLinks.expiresAt, now),
      ),
    )
    .returning({ userId: signInLinks.userId, tenantId: signInLinks.tenantId });
  if (link === undefined)
    throw new Problem("UZ-AUTH-010", { detail: "The sign-in link is unknown, used or expired." });
  const [member] = await ctx.db
    .select({ scopes: memberships.scopes, role: memberships.role })
    .from(memberships)
    .where(and(eq(memberships.tenantId, link.tenantId), eq(memberships.userId, link.userId)));
  if (member === undefined)
    throw new Problem("UZ-AUTH-010", { detail: "The sign-in link's person is no longer a member." });
  const session = await ctx.sessions.sign(
    { sub: link.userId, kind: "session", tenantId: link.tenantId, scopes: member.scopes },
    ctx.config.sessionTtlSeconds,
    now,
  );
  const operatorToken = await devOwnerOperatorToken(ctx, { userId: link.userId, role: member.role }, now);
  return {
    session_token: session.token,
    expires_at: session.expiresAt,
    user_id: link.userId,
    tenant_id: link.tenantId,
    ...(operatorToken === undefined ? {} : { operator_token: operatorToken }),
  };
}
