import { Problem } from "@fleet/contracts";
import { and, eq, memberships, users } from "@fleet/db";
import type { ServiceContext } from "../shared/context.ts";

/** The one membership a person signs into: the named tenant, or their only one. */
export async function membershipOf(ctx: ServiceContext, email: string, tenantId?: string) {
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
