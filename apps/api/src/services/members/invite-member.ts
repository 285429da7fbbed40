import { Problem } from "@fleet/contracts";
import { memberships } from "@fleet/db";
import type { TenantPrincipal } from "../../auth/principal.ts";
import { insertSignInLink } from "../sessions/sign-in-links.ts";
import { type Actor, recordAudit } from "../shared/audit.ts";
import type { ServiceContext } from "../shared/context.ts";
import { assertGrantable, callerIn, lockTenant, memberIn, ownerOnly, toMemberItem } from "./member-rules.ts";
import { ensureUser } from "./members.ts";

/**
 * Adds a person to the caller's tenant with scopes the caller holds, and answers a one-time sign-in link
 * for the inviter to pass on (the service sends no mail). The link is written in the same transaction.
 */
export async function inviteMember(
  ctx: ServiceContext,
  actor: Actor,
  caller: TenantPrincipal,
  input: { email: string; scopes: string[]; role: "owner" | "member" },
) {
  assertGrantable(caller, input.scopes);
  const now = ctx.now();
  return ctx.db.transaction(async (tx) => {
    await lockTenant(tx, caller.tenantId);
    const me = await callerIn(tx, caller);
    if (input.role === "owner" && me.role !== "owner") throw ownerOnly("Only an owner can invite an owner.");
    const userId = await ensureUser(tx, input.email, now);
    if ((await memberIn(tx, caller.tenantId, userId)) !== undefined) {
      throw new Problem("UZ-MEMBER-003", {
        detail: "That person is already a member of this tenant.",
        current_state: "member",
      });
    }
    await tx.insert(memberships).values({
      tenantId: caller.tenantId,
      userId,
      role: input.role,
      scopes: input.scopes,
      createdAt: now,
      // The inviter holds the new member's first sign-in link: a quorum counts the two as one family.
      invitedBy: caller.userId,
      familyId: me.familyId ?? caller.userId,
    });
    await recordAudit(tx, {
      actor,
      at: now,
      tenantId: caller.tenantId,
      workspaceId: null,
      action: "member.invite",
      target: `user:${userId}`,
      details: { role: input.role, scopes: input.scopes },
    });
    const link = await insertSignInLink(
      tx,
      ctx.config.consoleUrl,
      { tenantId: caller.tenantId, userId },
      now,
    );
    const member = await memberIn(tx, caller.tenantId, userId);
    return { member: toMemberItem(member!), sign_in_url: link.url, expires_at: link.expires_at };
  });
}
