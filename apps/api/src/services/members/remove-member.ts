import { and, apiKeys, eq, isNull, memberships, signInLinks } from "@fleet/db";
import type { TenantPrincipal } from "../../auth/principal.ts";
import { apiKeysRevokedWebhookEvents } from "../api-keys/api-key-webhooks.ts";
import { type Actor, recordAudit } from "../shared/audit.ts";
import { notifyPrincipalChange, type ServiceContext } from "../shared/context.ts";
import { callerIn, lastOwner, lockTenant, memberIn, ownerCount, ownerOnly } from "./member-rules.ts";
import { memberRemovedWebhookEvent } from "./member-webhooks.ts";

/**
 * Removes a person from the caller's tenant; a non-member is already removed. Their API keys in the
 * tenant are revoked and their unused sign-in links dropped, so a later invitation brings none of them
 * back; every instance refuses their credentials (and ends their streams) once this answers.
 */
export async function removeMember(
  ctx: ServiceContext,
  actor: Actor,
  caller: TenantPrincipal,
  userId: string,
): Promise<void> {
  const now = ctx.now();
  const removed = await ctx.db.transaction(async (tx): Promise<{ told: boolean } | undefined> => {
    await lockTenant(tx, caller.tenantId);
    const target = await memberIn(tx, caller.tenantId, userId);
    if (target === undefined) return undefined;
    // The last-owner rule first: of two owners removing each other at once, the second is told why.
    if (target.role === "owner" && (await ownerCount(tx, caller.tenantId)) <= 1) {
      throw lastOwner("The tenant's last owner cannot be removed; make another owner first.");
    }
    const me = await callerIn(tx, caller);
    if (target.role === "owner" && me.role !== "owner") throw ownerOnly("Only an owner can remove an owner.");
    await tx
      .delete(memberships)
      .where(and(eq(memberships.tenantId, caller.tenantId), eq(memberships.userId, userId)));
    const revoked = await tx
      .update(apiKeys)
      .set({ revokedAt: now })
      .where(
        and(eq(apiKeys.tenantId, caller.tenantId), eq(apiKeys.createdBy, userId), isNull(apiKeys.revokedAt)),
      )
      .returning();
    await tx
      .delete(signInLinks)
      .where(
        and(
          eq(signInLinks.tenantId, caller.tenantId),
          eq(signInLinks.userId, userId),
          isNull(signInLinks.usedAt),
        ),
      );
    await recordAudit(tx, {
      actor,
      at: now,
      tenantId: caller.tenantId,
      workspaceId: null,
      action: "member.remove",
      target: `user:${userId}`,
      details: { role: target.role, revoked_api_keys: revoked.length },
    });
    await notifyPrincipalChange(tx, `user:${userId}`);
    const keysTold = await apiKeysRevokedWebhookEvents(tx, revoked, now);
    const memberTold = await memberRemovedWebhookEvent(tx, caller.tenantId, target, now);
    return { told: keysTold || memberTold };
  });
  if (removed === undefined) return;
  await ctx.principalsChanged(`user:${userId}`);
  if (removed.told) ctx.webhookOutbox?.kick();
}
