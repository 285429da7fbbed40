import { count, runners } from "@fleet/db";
import type { ServiceContext } from "../shared/context.ts";
import { keysetPage } from "../shared/keyset.ts";
import { runnerViews } from "./runner-view.ts";

export async function listRunners(ctx: ServiceContext, input: { starting_after?: string; limit: number }) {
  const now = ctx.now();
  const page = await keysetPage({
    bind: "runners",
    sort: runners.createdAt,
    id: runners.id,
    descending: true,
    limit: input.limit,
    starting_after: input.starting_after,
    read: ({ after, order, rows }) => runnerViews(ctx.db, after, rows, now, order),
    keyOf: ({ row }) => ({ value: row.createdAt, id: row.id }),
    count: () => ctx.db.select({ n: count() }).from(runners),
  });
  return { items: page.items.map((item) => item.view), total: page.total, next_cursor: page.next_cursor };
}
