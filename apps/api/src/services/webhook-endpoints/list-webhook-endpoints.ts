import { and, count, eq, webhookEndpoints } from "@fleet/db";
import type { ServiceContext } from "../shared/context.ts";
import { keysetPage } from "../shared/keyset.ts";
import { requireWorkspace } from "../shared/tenancy.ts";
import { healthOf, NO_HEALTH } from "./endpoint-health.ts";
import { toEndpointItem } from "./endpoint-rows.ts";

/** One page of the workspace's endpoints with their health, newest first, keyset-paged over (created_at, id). */
export async function listWebhookEndpoints(
  ctx: ServiceContext,
  tenantId: string,
  input: { workspace_id: string; starting_after?: string; limit: number },
) {
  await requireWorkspace(ctx.db, tenantId, input.workspace_id);
  const where = and(
    eq(webhookEndpoints.workspaceId, input.workspace_id),
    eq(webhookEndpoints.tenantId, tenantId),
  );
  const now = ctx.now();
  const page = await keysetPage({
    bind: `webhook-endpoints:${input.workspace_id}`,
    sort: webhookEndpoints.createdAt,
    id: webhookEndpoints.id,
    descending: true,
    valueType: "number",
    limit: input.limit,
    starting_after: input.starting_after,
    read: ({ after, order, rows }) =>
      ctx.db
        .select()
        .from(webhookEndpoints)
        .where(and(where, after))
        .orderBy(...order)
        .limit(rows),
    keyOf: (row) => ({ value: row.createdAt, id: row.id }),
    count: () => ctx.db.select({ n: count() }).from(webhookEndpoints).where(where),
  });
  const health = await healthOf(
    ctx.db,
    page.items.map((row) => row.id),
    now,
  );
  return {
    items: page.items.map((row) => toEndpointItem(row, now, health.get(row.id) ?? NO_HEALTH)),
    total: page.total,
    next_cursor: page.next_cursor,
  };
}
