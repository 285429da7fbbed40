import { and, eq, integrationGrants } from "@fleet/db";
import type { ServiceContext } from "../shared/context.ts";
import { keysetPage } from "../shared/keyset.ts";
import { requireFleet } from "../shared/tenancy.ts";
import { toGrantView } from "./view.ts";

export interface GrantListQuery {
  workspace_id: string;
  fleet_id: string;
  status?: "pending" | "approved" | "revoked";
  starting_after?: string;
  limit: number;
}

/** A fleet's grants, newest first, keyset over (created_at, id): a re-request does not move a grant. */
export async function listIntegrationGrants(ctx: ServiceContext, tenantId: string, input: GrantListQuery) {
  await requireFleet(ctx.db, tenantId, input.workspace_id, input.fleet_id);
  const page = await keysetPage({
    bind: `integration-grants:${input.fleet_id}:${input.status ?? ""}`,
    sort: integrationGrants.createdAt,
    id: integrationGrants.id,
    descending: true,
    limit: input.limit,
    starting_after: input.starting_after,
    read: ({ after, order, rows }) =>
      ctx.db
        .select()
        .from(integrationGrants)
        .where(
          and(
            eq(integrationGrants.fleetId, input.fleet_id),
            input.status === undefined ? undefined : eq(integrationGrants.status, input.status),
            after,
          ),
        )
        .orderBy(...order)
        .limit(rows),
    keyOf: (row) => ({ value: row.createdAt, id: row.id }),
  });
  return { ...page, items: page.items.map(toGrantView) };
}
