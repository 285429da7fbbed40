import { Problem } from "@fleet/contracts";
import { and, asc, eq, integrationGrants, leases } from "@fleet/db";
import type { ServiceContext } from "../shared/context.ts";
import { toGrantView } from "./view.ts";

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
