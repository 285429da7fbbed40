import { and, eq, memberships } from "@fleet/db";
import type { TenantPrincipal } from "../../auth/principal.ts";
import { type Actor, recordAudit } from "../shared/audit.ts";
import { notifyPrincipalChange, type ServiceContext } from "../shared/context.ts";
import {
  assertGrantable,
  callerIn,
  lastOwner,
  lockTenant,
  memberIn,
  memberNotFound,
  ownerCount,
  ownerOnly,
  toMemberItem,
} from "./member-rules.ts";

/**
 * Replaces a member's scopes and/or role. Scopes the member did not hold are granted, and only a caller
 * holding them grants them; scopes the member keeps need not be the caller's. Their sessions and keys act
 * with the change from their next request, on every instance.
 */
export async function updateMember(
  ctx: ServiceContext,
  actor: Actor,
  caller: TenantPrincipal,
  userId: string,
  input: { scopes?: string[] | undefined; role?: "owner" | "member" | undefined },
) {
  const now = ctx.now();
  const result = await ctx.db.transaction(async (tx) => {
    await lockTenant(tx, caller.tenantId);
    const me = await callerIn(tx, caller);
    const target = await memberIn(tx, caller.tenantId, userId);
    if (target === undefined) throw memberNotFound(userId);
    const scopes = input.scopes ?? target.scopes;
    const role = input.role ?? target.role;
    const changed =
      role !== target.role ||
      scopes.length !== target.scopes.length ||
      scopes.some((scope) => !target.scopes.includes(scope));
    if (!changed) return { item: toMemberItem(target), changed: false };
    if (target.role === "owner" && me.role !== "owner") throw ownerOnly("Only an owner can change an owner.");
    if (role !== target.role && me.role !== "owner")
      throw ownerOnly("Only an owner can give or take the owner role.");
    assertGrantable(
      caller,
      scopes.filter((scope) => !target.scopes.includes(scope)),
    );
    if (target.role === "owner" && role !== "owner" && (await ownerCount(tx, caller.tenantId)) <= 1) {
      throw lastOwner("The tenant's last owner cannot stop being an owner; make another owner first.");
    }
    await tx
      .update(memberships)
      .set({ scopes, role })
      .where(and(eq(memberships.tenantId, caller.tenantId), eq(memberships.userId, userId)));
    await recordAudit(tx, {
      actor,
      at: now,
      tenantId: caller.tenantId,
      workspaceId: null,
      action: "member.update",
      target: `user:${userId}`,
      details: { role, scopes, previous_role: target.role, previous_scopes: target.scopes },
    });
    await notifyPrincipalChange(tx, `user:${userId}`);
    return { item: toMemberItem({ ...target, scopes, role }), changed: true };
  });
  if (result.changed) await ctx.principalsChanged(`user:${userId}`);
  return result.item;
}
