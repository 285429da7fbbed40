import { eq, fleets, leases } from "@fleet/db";
import { labelledFleet, messageFleet } from "./fleet-fixtures.ts";
import { call, seedTenant, testApi } from "./harness.ts";
import type { EnrolledRunner, HeldLease } from "./runner-fixtures.ts";

// What the lease batch tests (acquires, reports, renewals: issue 34) set up.

/** Ends the lease's life as the clock would, without waiting 30 s. */
export async function expire(leaseId: string) {
  const api = await testApi();
  const [lease] = await api.database.db
    .update(leases)
    .set({ expiresAt: Date.now() - 1 })
    .where(eq(leases.id, leaseId))
    .returning();
  await api.database.db
    .update(fleets)
    .set({ leasedUntil: Date.now() - 1 })
    .where(eq(fleets.id, lease!.fleetId));
}

/** `count` fleets of `label`, each with `messages` waiting events (oldest first). */
export async function busyFleets(label: string, count: number, messages: number) {
  const tenant = await seedTenant();
  const fleetIds = await Promise.all(Array.from({ length: count }, () => labelledFleet(tenant, label)));
  const events = new Map<string, string[]>();
  for (const fleetId of fleetIds) {
    const ids: string[] = [];
    for (let n = 0; n < messages; n++) ids.push(await messageFleet(tenant, fleetId, `message ${n}`));
    events.set(fleetId, ids);
  }
  return { tenant, fleetIds, events };
}

/** Renews the lease through the runner route. */
export function renew(runner: EnrolledRunner, lease: HeldLease, token = lease.fencing_token) {
  return call<Record<string, unknown>>("POST", `/v1/runners/me/leases/${lease.lease_id}/renew`, {
    token: runner.token,
    body: { fencing_token: token },
  });
}
