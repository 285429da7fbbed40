import { and, chatLinks, eq, memberships, tenants, users } from "@fleet/db";
import { credentialBucket, type TenantPrincipal } from "../../auth/principal.ts";
import type { ServiceContext } from "../shared/context.ts";

/**
 * The member a chat user is linked to, as a principal with the membership's current scopes, or null when
 * the chat user is linked to nobody in the tenant (a removed member's links went with the membership).
 * The principal exists only to answer the click through the inbox's own answer: it is never a credential.
 */
export async function linkedMember(
  ctx: ServiceContext,
  key: { tenantId: string; provider: string; teamId: string; chatUserId: string },
): Promise<TenantPrincipal | null> {
  const [row] = await ctx.db
    .select({
      userId: memberships.userId,
      scopes: memberships.scopes,
      email: users.email,
      displayName: users.displayName,
      tenantName: tenants.name,
    })
    .from(chatLinks)
    .innerJoin(
      memberships,
      and(eq(memberships.tenantId, chatLinks.tenantId), eq(memberships.userId, chatLinks.userId)),
    )
    .innerJoin(users, eq(users.id, memberships.userId))
    .innerJoin(tenants, eq(tenants.id, memberships.tenantId))
    .where(
      and(
        eq(chatLinks.tenantId, key.tenantId),
        eq(chatLinks.provider, key.provider),
        eq(chatLinks.teamId, key.teamId),
        eq(chatLinks.chatUserId, key.chatUserId),
      ),
    );
  if (row === undefined) return null;
  return {
    class: "session",
    // What the member's own console session would be; nothing but the gate's answer reads it.
    credential: "session_token",
    userId: row.userId,
    email: row.email,
    displayName: row.displayName,
    tenantId: key.tenantId,
    tenantName: row.tenantName,
    scopes: row.scopes,
    apiKeyId: null,
    rateLimit: null,
    bucketKey: credentialBucket(null, key.tenantId, row.userId),
  };
}
