import { Problem } from "@fleet/contracts";
import { type Database, eq, fleets, leases, type Tx } from "@fleet/db";
import type { ServiceContext } from "./context.ts";

/** The refusal of a write by a holder the lease no longer has. */
export function lostLease(currentState: string): Problem {
  return new Problem("UZ-RUN-005", {
    detail: "This lease has been superseded or has ended; its holder may no longer write.",
    current_state: currentState,
  });
}

/**
 * The lease, if the caller holds it and is still the fleet's current holder. Locks the fleet row, so
 * the check holds until the enclosing transaction ends: no newer lease can be granted meanwhile.
 */
export async function requireCurrentLease(
  tx: Database | Tx,
  runnerId: string,
  leaseId: string,
  fencingToken: number | null,
) {
  const [lease] = await tx.select().from(leases).where(eq(leases.id, leaseId));
  if (lease === undefined || lease.runnerId !== runnerId) {
    throw new Problem("UZ-RUN-001", { detail: `This runner holds no lease ${leaseId}.` });
  }
  const [fleet] = await tx
    .select({ fenceSeq: fleets.fenceSeq })
    .from(fleets)
    .where(eq(fleets.id, lease.fleetId))
    .for("no key update");
  const token = fencingToken ?? lease.fencingToken;
  if (
    fleet === undefined ||
    lease.status !== "running" ||
    token !== lease.fencingToken ||
    fleet.fenceSeq !== lease.fencingToken
  ) {
    throw lostLease(lease.status === "running" ? "superseded" : lease.status);
  }
  return lease;
}

/**
 * Runs a fenced write: in one transaction in which the caller is the lease's current holder, with the
 * fleet row locked until the write commits. `fencing_token` null checks the lease's own token (routes
 * whose body carries none, such as activity).
 */
export function fencedWrite<T>(
  ctx: ServiceContext,
  runnerId: string,
  ref: { lease_id: string; fencing_token: number | null },
  write: (tx: Tx, lease: typeof leases.$inferSelect) => Promise<T>,
): Promise<T> {
  return ctx.db.transaction(async (tx) =>
    write(tx, await requireCurrentLease(tx, runnerId, ref.lease_id, ref.fencing_token)),
  );
}
