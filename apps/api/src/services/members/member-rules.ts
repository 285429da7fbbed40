import { hasScope, type MemberItem, Problem } from "@fleet/contracts";
import { and, eq, memberships, type Tx, tenants, users } from "@fleet/db";
import type { TenantPrincipal } from "../../auth/principal.ts";

/** The member row and person a view shows. */
export interface MemberRow {
  userId: string;
  email: string;
  displayName: string | null;
  role: string;
  scopes: string[];
  createdAt: number;
  /** The invitation family (null: their own); see memberships.family_id. */
  familyId: string | null;
}

export function toMemberItem(row: MemberRow): MemberItem {
  return {
    user_id: row.userId,
    email: row.email,
    display_name: row.displayName,
    role: row.role === "owner" ? "owner" : "member",
    scopes: row.scopes,
    created_at: row.createdAt,
  };
}

export const memberColumns = {
  userId: memberships.userId,
  email: users.email,
  displayName: users.displayName,
  role: memberships.role,
  scopes: memberships.scopes,
  createdAt: memberships.createdAt,
  familyId: memberships.familyId,
};

/**
 * Locks the tenant's row: every change to its members runs one at a time, so two removals (or a removal
 * and a demotion) of its last two owners cannot each see the other still there.
 */
export async function lockTenant(tx: Tx, tenantId: string): Promise<void> {
  await tx.select({ id: tenants.id }).from(tenants).where(eq(tenants.id, tenantId)).for("update");
}

/** A member of the tenant, read inside the locking transaction; undefined when the person is none. */
export async function memberIn(tx: Tx, tenantId: string, userId: string): Promise<MemberRow | undefined> {
  const [row] = await tx
    .select(memberColumns)
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.tenantId, tenantId), eq(memberships.userId, userId)));
  return row;
}

/**
 * The caller's own membership as it stands under the lock: a caller removed by a change that committed
 * while this request waited acts no more.
 */
export async function callerIn(tx: Tx, caller: TenantPrincipal): Promise<MemberRow> {
  const row = await memberIn(tx, caller.tenantId, caller.userId);
  if (row === undefined) {
    throw new Problem("UZ-AUTH-002", { detail: "The credential is no longer a member of its tenant." });
  }
  return row;
}

/** Refuses scopes the caller does not hold in this request: nobody grants what they cannot use. */
export function assertGrantable(caller: TenantPrincipal, granted: readonly string[]): void {
  const lacking = granted.filter((scope) => !hasScope(caller.scopes, scope));
  if (lacking.length > 0) {
    throw new Problem("UZ-AUTH-022", {
      detail: `You can grant only scopes you hold; you lack ${lacking.join(", ")}.`,
    });
  }
}

export function ownerOnly(detail: string): Problem {
  return new Problem("UZ-MEMBER-002", { detail });
}

export function memberNotFound(userId: string): Problem {
  return new Problem("UZ-MEMBER-001", { detail: `No member ${userId} in this tenant.` });
}

/** How many owners the tenant has, read under the tenant lock. */
export async function ownerCount(tx: Tx, tenantId: string): Promise<number> {
  const rows = await tx
    .select({ userId: memberships.userId })
    .from(memberships)
    .where(and(eq(memberships.tenantId, tenantId), eq(memberships.role, "owner")));
  return rows.length;
}

export function lastOwner(detail: string): Problem {
  return new Problem("UZ-INV-004", { detail, current_state: "last_owner" });
}
