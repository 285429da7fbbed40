/**
 * The charges of this instance's gateway calls that are still being written, by database and lease.
 *
 * A call's charge is written after its answer has gone (docs/decisions/model-gateway.md, "The charge
 * after the answer"): the statement's round trip and its durable commit are not the runner's wait. The
 * budget never sees less than it should meanwhile: the call's reservation (its worst case, taken at
 * admission) stays on the lease until the charge replaces it. What reads a run's spend as final waits
 * here first: the lease's report (its event's cost then includes every call the runner saw answered on
 * this instance; a call answered by another instance is added by the late charge), a call refused for
 * its budget (asked again once the charges are written: their reservations may be what left no room),
 * and the shutdown (no charge is cut by the database closing).
 */
const pending = new WeakMap<object, Map<string, Set<Promise<void>>>>();

function leasesOf(db: object): Map<string, Set<Promise<void>>> {
  let leases = pending.get(db);
  if (leases === undefined) {
    leases = new Map();
    pending.set(db, leases);
  }
  return leases;
}

/**
 * Writes a lease's charge in the background. A charge that fails is not retried or reported: it leaves the
 * call's reservation on the lease, which holds that much of the run's budget until the lease ends.
 */
export function settleAfter(db: object, leaseId: string, settle: () => Promise<unknown>): void {
  const leases = leasesOf(db);
  let calls = leases.get(leaseId);
  if (calls === undefined) {
    calls = new Set();
    leases.set(leaseId, calls);
  }
  const held = calls;
  const work: Promise<void> = settle().then(
    () => {},
    () => {},
  );
  held.add(work);
  void work.finally(() => {
    held.delete(work);
    if (held.size === 0 && leases.get(leaseId) === held) leases.delete(leaseId);
  });
}

/** Whether this instance is still writing a charge of the lease. */
export function settling(db: object, leaseId: string): boolean {
  return pending.get(db)?.has(leaseId) === true;
}

/** Resolves once the lease's charges begun on this instance so far are written (or have failed). */
export async function leaseSettled(db: object, leaseId: string): Promise<void> {
  const calls = pending.get(db)?.get(leaseId);
  if (calls !== undefined) await Promise.all(calls);
}

/** Resolves once every charge begun on this instance so far is written (or has failed): the shutdown's. */
export async function allSettled(db: object): Promise<void> {
  const leases = pending.get(db);
  if (leases !== undefined) await Promise.all([...leases.values()].flatMap((calls) => [...calls]));
}
