import { Problem, tenantScopes } from "@fleet/contracts";
import { eq, memberships, type Tx, tenants, users } from "@fleet/db";
import { newId } from "../../runtime/ids.ts";
import { notifyPrincipalChange, type ServiceContext } from "../shared/context.ts";

/** Finds the user with this address, or creates them. */
export async function ensureUser(tx: Tx, email: string, now: number): Promise<string> {
  const address = email.trim().toLowerCase();
  await tx
    .insert(users)
    .values({ id: newId(now), email: address, createdAt: now })
    .onConflictDoNothing();
  const [row] = await tx.select({ id: users.id }).from(users).where(eq(users.email, address));
  return row!.id;
}

/**
 * Adds a person to a tenant with the given scopes, or sets the scopes of one already there. Their
 * sessions and keys act with the new scopes at once, on every instance.
 */
export async function upsertMember(
  ctx: ServiceContext,
  input: { tenantId: string; email: string; scopes: string[]; role?: "owner" | "member" },
): Promise<{ user_id: string }> {
  const unknown = input.scopes.filter((scope) => !(tenantScopes as readonly string[]).includes(scope));
  if (unknown.length > 0) {
    throw new Problem("UZ-REQ-001", { detail: `Not tenant scopes: ${unknown.join(", ")}.` });
  }
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(input.tenantId)) {
    throw new Problem("UZ-REQ-001", { detail: "tenant id must be a UUID." });
  }
  const now = ctx.now();
  const member = await ctx.db.transaction(async (tx) => {
    const [tenant] = await tx.select({ id: tenants.id }).from(tenants).where(eq(tenants.id, input.tenantId));
    if (tenant === undefined) throw new Problem("UZ-REQ-001", { detail: `No tenant ${input.tenantId}.` });
    const userId = await ensureUser(tx, input.email, now);
    // A new person joins as a member unless told otherwise; an existing one keeps their role unless given one.
    await tx
      .insert(memberships)
      .values({
        tenantId: input.tenantId,
        userId,
        role: input.role ?? "member",
        scopes: input.scopes,
        createdAt: now,
      })
      .onConflictDoUpdate({
        target: [memberships.tenantId, memberships.userId],
        set: input.role === undefined ? { scopes: input.scopes } : { scopes: input.scopes, role: input.role },
      });
    await notifyPrincipalChange(tx, `user:${userId}`);
    return { user_id: userId };
  });
  await ctx.principalsChanged(`user:${member.user_id}`);
  return member;
}
