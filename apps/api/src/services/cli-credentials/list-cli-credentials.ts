import type { CliCredentialItem } from "@fleet/contracts";
import { and, cliCredentials, count, eq, gt } from "@fleet/db";
import type { TenantPrincipal } from "../../auth/principal.ts";
import type { ServiceContext } from "../shared/context.ts";
import { keysetPage } from "../shared/keyset.ts";

type Row = typeof cliCredentials.$inferSelect;

function toItem(row: Row, current: string | null | undefined): CliCredentialItem {
  return {
    id: row.id,
    client_name: row.clientName,
    client_host: row.clientHost,
    created_at: row.createdAt,
    expires_at: row.expiresAt,
    revoked_at: row.revokedAt,
    current: row.id === current,
  };
}

/** The caller's credentials in this tenant that have not expired, newest first. */
export async function listCliCredentials(
  ctx: ServiceContext,
  principal: TenantPrincipal,
  input: { starting_after?: string; limit: number },
) {
  const now = ctx.now();
  const mine = and(
    eq(cliCredentials.tenantId, principal.tenantId),
    eq(cliCredentials.userId, principal.userId),
    gt(cliCredentials.expiresAt, now),
  );
  const page = await keysetPage({
    bind: "cli-credentials",
    sort: cliCredentials.createdAt,
    id: cliCredentials.id,
    descending: true,
    limit: input.limit,
    starting_after: input.starting_after,
    read: ({ after, order, rows }) =>
      ctx.db
        .select()
        .from(cliCredentials)
        .where(and(mine, after))
        .orderBy(...order)
        .limit(rows),
    keyOf: (row) => ({ value: row.createdAt, id: row.id }),
    count: () => ctx.db.select({ n: count() }).from(cliCredentials).where(mine),
  });
  return {
    items: page.items.map((row) => toItem(row, principal.cliCredentialId)),
    total: page.total,
    next_cursor: page.next_cursor,
  };
}
