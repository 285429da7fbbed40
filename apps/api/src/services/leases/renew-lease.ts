import { and, type Database, eq, fleets, leases } from "@fleet/db";
import { newId } from "../../runtime/ids.ts";
import { budgetRefusal } from "../billing/budgets.ts";
import { periodOf } from "../billing/period.ts";
import type { ServiceContext } from "../shared/context.ts";
import { fencedWrite, lostLease } from "../shared/fence.ts";
import { batchesOf, type GroupCommit } from "../shared/group-commit.ts";
import { LEASE_MAX_MS } from "./lease-terms.ts";
import { type RenewRow, renewMany } from "./renew-batches.ts";

/**
 * Extends the lease, in one statement shared with the renewals queued by the end of the same event-loop
 * turn, and one commit (`renewMany`, issue 34). A renewal it did not extend is refused, or extended after
 * all, by the fenced transaction below (`renewAlone`), which says why: not this runner's lease (404),
 * superseded or ended (409 UZ-RUN-005), or the run's budget spent (409 UZ-BUDGET-001).
 */
export async function renewLease(
  ctx: ServiceContext,
  runnerId: string,
  input: { lease_id: string; fencing_token: number },
) {
  const now = ctx.now();
  const expiresAt = await batchesOf(batches, ctx, renewMany, (row) => row.leaseId).store({
    id: newId(now),
    leaseId: input.lease_id,
    runnerId,
    fencingToken: input.fencing_token,
    at: now,
    ttlMs: ctx.config.leaseTtlMs,
    period: periodOf(now).period,
  });
  if (expiresAt === null) return renewAlone(ctx, runnerId, input);
  ctx.metrics?.lease("renewed");
  return { lease_id: input.lease_id, expires_at: expiresAt };
}

const batches = new WeakMap<Database, GroupCommit<RenewRow, number | null>>();

async function renewAlone(
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
