import { lt, sessionRevocations } from "@fleet/db";
import type { TenantPrincipal } from "../../auth/principal.ts";
import { revokeApprovedThrough } from "../cli-credentials/cascade.ts";
import { revokeCliCredential } from "../cli-credentials/revoke-cli-credential.ts";
import { type Actor, recordAudit } from "../shared/audit.ts";
import { notifyPrincipalChange, type ServiceContext } from "../shared/context.ts";

/**
 * Signs out the credential the request is made with, and every command-line credential approved through
 * it. A command-line credential is revoked as `DELETE …/cli-credentials/{id}` does; a console session is
 * listed in `session_revocations`. The answer waits until every instance has dropped them all. A console
 * session from before sessions had ids has nothing to list (and could approve nothing): 204 all the same.
 */
export async function endSession(
  ctx: ServiceContext,
  actor: Actor,
  principal: TenantPrincipal,
): Promise<void> {
  if (principal.cliCredentialId) {
    await revokeCliCredential(ctx, actor, principal, principal.cliCredentialId);
    return;
  }
  const sessionId = principal.sessionId;
  if (!sessionId) return;
  const now = ctx.now();
  const ended = await ctx.db.transaction(async (tx) => {
    const [listed] = await tx
      .insert(sessionRevocations)
      .values({
        sessionId,
        tenantId: principal.tenantId,
        userId: principal.userId,
        revokedAt: now,
        // No session outlives a full lifetime from now; past it the entry no longer matters.
        expiresAt: now + ctx.config.sessionTtlSeconds * 1000,
      })
      .onConflictDoNothing()
      .returning();
    if (listed === undefined) return [];
    // Entries of sessions that have expired refuse nothing any more: they go as new ones arrive.
    await tx.delete(sessionRevocations).where(lt(sessionRevocations.expiresAt, now));
    const approved = await revokeApprovedThrough(tx, [`session:${sessionId}`], now);
    await recordAudit(tx, {
      actor,
      at: now,
      tenantId: principal.tenantId,
      workspaceId: null,
      action: "session.end",
      target: `session:${sessionId}`,
      details: approved.length > 0 ? { cascaded: approved } : {},
    });
    await notifyPrincipalChange(tx, `session:${sessionId}`);
    return [`session:${sessionId}`, ...approved.map((id) => `cli:${id}`)];
  });
  for (const tag of ended) await ctx.principalsChanged(tag);
}
