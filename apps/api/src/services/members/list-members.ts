import { and, count, eq, memberships, users } from "@fleet/db";
import type { ServiceContext } from "../shared/context.ts";
import { keysetPage } from "../shared/keyset.ts";
import { memberColumns, toMemberItem } from "./member-rules.ts";

/** The tenant's members, oldest first, keyset-paged over (joined at, user id). */
export async function listMembers(
  ctx: ServiceContext,
  tenantId: string,
  input: { starting_after?: string; limit: number },
) {
  const page = await keysetPage({
    bind: "members",
    sort: memberships.createdAt,
    id: memberships.userId,
    descending: false,
    limit: input.limit,
    starting_after: input.starting_after,
    read: ({ after, order, rows }) =>
      ctx.db
        .select(memberColumns)
        .from(memberships)
        .innerJoin(users, eq(users.id, memberships.userId))
        .where(and(eq(memberships.tenantId, tenantId), after))
        .orderBy(...order)
        .limit(rows),
    keyOf: (row) => ({ value: row.createdAt, id: row.userId }),
    count: () => ctx.db.select({ n: count() }).from(memberships).where(eq(memberships.tenantId, tenantId)),
  });
  return { items: page.items.map(toMemberItem), total: page.total, next_cursor: page.next_cursor };
}
