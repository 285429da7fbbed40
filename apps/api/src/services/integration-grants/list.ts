import { Problem } from "@fleet/contracts";
import { and, asc, eq, integrationGrants, leases } from "@fleet/db";
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
export async function listGrants(ctx: ServiceContext, tenantId: string, input: GrantListQuery) {
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

/**
 * The grants of the fleet a runner's lease runs, for its executor. Only while the lease runs: a runner
 * whose lease ended or was superseded may use nothing, so it learns nothing here either.
 */
export async function listLeaseGrants(ctx: ServiceContext, runnerId: string, leaseId: string) {
  const [lease] = await ctx.db
    .select({ fleetId: leases.fleetId, status: leases.status, expiresAt: leases.expiresAt })
    .from(leases)
    .where(and(eq(leases.id, leaseId), eq(leases.runnerId, runnerId)));
  if (lease === undefined)
    throw new Problem("UZ-RUN-001", { detail: `This runner holds no lease ${leaseId}.` });
  const now = ctx.now();
  if (lease.status !== "running" || lease.expiresAt <= now) {
    const state = lease.status === "running" ? "expired" : lease.status;
    throw new Problem("UZ-RUN-005", {
      detail: `The lease is ${state}; it reads no grants.`,
      current_state: state,
    });
  }
  const rows = await ctx.db
    .select()
    .from(integrationGrants)
    .where(eq(integrationGrants.fleetId, lease.fleetId))
    .orderBy(asc(integrationGrants.service));
  return { items: rows.map(toGrantView) };
}
