import { randomBytes, timingSafeEqual } from "node:crypto";
import { Problem } from "@fleet/contracts";
import { and, chatLinkTokens, eq, gt, lt, type Tx } from "@fleet/db";
import { sha256Hex } from "../../auth/tokens.ts";
import type { ServiceContext } from "../shared/context.ts";

const PURPOSE = "chat-link";

/** How long a link offered in chat may be redeemed. */
export const CHAT_LINK_TTL_MS = 10 * 60_000;

interface LinkClaims {
  /** A nonce: two links for one chat user differ. */
  n: string;
  /** The tenant the link is for, and its expiry. */
  t: string;
  e: number;
  /** For the console's confirmation only (the MAC covers them): the chat user and the team's name. */
  u: string;
  m: string | null;
}

/** The chat user a link is offered to: a connector's team and one of its users. */
export interface ChatIdentity {
  tenantId: string;
  connectorId: string;
  provider: string;
  teamId: string;
  chatUserId: string;
}

/**
 * Issues a one-time link for a chat user: claims (nonce, tenant, expiry, and for display the chat user and
 * team name) in base64url and their MAC under
 * a key derived from the session signing key, as a connect's state is. Only the token's SHA-256 is stored,
 * replacing any earlier link of the same chat user, and expired links are dropped here. Answers the
 * console URL the member opens.
 */
export async function issueLinkToken(
  ctx: ServiceContext,
  identity: ChatIdentity,
  teamName: string | null,
): Promise<{ url: string; expiresAt: number }> {
  const now = ctx.now();
  const claims: LinkClaims = {
    n: randomBytes(18).toString("base64url"),
    t: identity.tenantId,
    e: now + CHAT_LINK_TTL_MS,
    u: identity.chatUserId,
    m: teamName,
  };
  const payload = Buffer.from(JSON.stringify(claims)).toString("base64url");
  const token = `${payload}.${ctx.sessions.mac(PURPOSE, payload)}`;
  await ctx.db.transaction(async (tx) => {
    await tx.delete(chatLinkTokens).where(lt(chatLinkTokens.expiresAt, now));
    await tx
      .delete(chatLinkTokens)
      .where(
        and(
          eq(chatLinkTokens.connectorId, identity.connectorId),
          eq(chatLinkTokens.chatUserId, identity.chatUserId),
        ),
      );
    await tx.insert(chatLinkTokens).values({ tokenHash: sha256Hex(token), ...identity, expiresAt: claims.e });
  });
  return { url: `${ctx.config.consoleUrl}/connect/chat-link?token=${token}`, expiresAt: claims.e };
}

const refused = () =>
  new Problem("UZ-CONN-006", {
    detail:
      "The chat link is not valid: forged, expired, already used or made for another tenant. Click the gate's button in chat again for a fresh one.",
  });

/**
 * Verifies a link token and spends it in the caller's transaction (its row is deleted), answering the chat
 * user it was offered to. A token that does not verify, has expired, was spent or names another tenant
 * is refused: the transaction is the caller's, so a refusal spends nothing.
 */
export async function spendLinkToken(
  ctx: ServiceContext,
  tx: Tx,
  tenantId: string,
  token: string,
  now: number,
): Promise<ChatIdentity> {
  const dot = token.indexOf(".");
  if (dot <= 0) throw refused();
  const payload = token.slice(0, dot);
  const expected = Buffer.from(ctx.sessions.mac(PURPOSE, payload));
  const given = Buffer.from(token.slice(dot + 1));
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw refused();
  let claims: Partial<LinkClaims>;
  try {
    claims = JSON.parse(Buffer.from(payload, "base64url").toString()) as Partial<LinkClaims>;
  } catch {
    throw refused();
  }
  if (claims.t !== tenantId || typeof claims.e !== "number" || claims.e <= now) throw refused();
  const [row] = await tx
    .delete(chatLinkTokens)
    .where(
      and(
        eq(chatLinkTokens.tokenHash, sha256Hex(token)),
        eq(chatLinkTokens.tenantId, tenantId),
        gt(chatLinkTokens.expiresAt, now),
      ),
    )
    .returning();
  if (row === undefined) throw refused();
  return {
    tenantId: row.tenantId,
    connectorId: row.connectorId,
    provider: row.provider,
    teamId: row.teamId,
    chatUserId: row.chatUserId,
  };
}
