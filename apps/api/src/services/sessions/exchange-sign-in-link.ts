import { Problem } from "@fleet/contracts";
import { and, eq, gt, isNull, memberships, signInLinks } from "@fleet/db";
import { sha256Hex } from "../../auth/tokens.ts";
import { newId } from "../../runtime/ids.ts";
import { type RequestRef, recordAudit } from "../shared/audit.ts";
import type { ServiceContext } from "../shared/context.ts";
import { devOwnerOperatorToken } from "./dev-operator.ts";

/**
 * Spends a sign-in link (once, before it expires) for a console session token, and in dev mode, for an
 * owner, an operator token beside it (dev-operator.ts).
 */
export async function exchangeSignInLink(ctx: ServiceContext, request: RequestRef, token: string) {
  const now = ctx.now();
  const { link, member } = await ctx.db.transaction(async (tx) => {
    const [link] = await tx
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
    const [member] = await tx
      .select({ scopes: memberships.scopes, role: memberships.role })
      .from(memberships)
      .where(and(eq(memberships.tenantId, link.tenantId), eq(memberships.userId, link.userId)));
    // A former member's link is spent all the same, and no one signs in: nothing to record.
    if (member !== undefined) {
      await recordAudit(tx, {
        actor: { ...request, principal: `user:${link.userId}` },
        at: now,
        tenantId: link.tenantId,
        workspaceId: null,
        action: "session.exchange_sign_in_link",
        target: `user:${link.userId}`,
        details: { operator_token: ctx.config.devMode && member.role === "owner" },
      });
    }
    return { link, member };
  });
  if (member === undefined)
    throw new Problem("UZ-AUTH-010", { detail: "The sign-in link's person is no longer a member." });
  const session = await ctx.sessions.sign(
    {
      sub: link.userId,
      kind: "session",
      tenantId: link.tenantId,
      scopes: member.scopes,
      // Its own id, so signing out (or a revoke) can end it before it expires.
      sessionId: newId(now),
    },
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
