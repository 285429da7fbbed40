import { and, eq, fleets, leases } from "@fleet/db";
import { budgetRefusal } from "../billing/budgets.ts";
import type { ServiceContext } from "../shared/context.ts";
import { fencedWrite, lostLease } from "../shared/fence.ts";
import { LEASE_MAX_MS } from "./lease-terms.ts";

export async function renewLease(
  ctx: ServiceContext,
  runnerId: string,
  input: { lease_id: string; fencing_token: number },
) {
  const now = ctx.now();
  return fencedWrite(ctx, runnerId, input, async (tx, lease) => {
    // A run over its budget is told to stop here, and is not extended (its report is still taken).
    const refusal = await budgetRefusal(tx, lease, now);
    if (refusal !== null) throw refusal;
    const expiresAt = Math.min(now + ctx.config.leaseTtlMs, lease.createdAt + LEASE_MAX_MS);
    // Still running when the row is written: a lapsed lease marked expired by a concurrent acquire
    // after `requireCurrentLease` read it is not revived (its fleet would stay blocked for a TTL).
    const renewed = await tx
      .update(leases)
      .set({ expiresAt })
      .where(and(eq(leases.id, lease.id), eq(leases.status, "running")))
      .returning({ id: leases.id });
    if (renewed.length === 0) {
      throw lostLease("expired");
    }
    await tx.update(fleets).set({ leasedUntil: expiresAt }).where(eq(fleets.id, lease.fleetId));
    return { lease_id: lease.id, expires_at: expiresAt };
  }).then((renewed) => {
    ctx.metrics?.lease("renewed");
    return renewed;
  });
}
