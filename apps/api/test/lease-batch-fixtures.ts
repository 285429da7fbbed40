import { eq, fleets, leases } from "@fleet/db";
import { expect } from "vitest";
import { labelledFleet, messageFleet } from "./fleet-fixtures.ts";
import { call, seedTenant, testApi } from "./harness.ts";
import { acquire, type EnrolledRunner, enrollRunner, type HeldLease } from "./runner-fixtures.ts";

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

/**
 * `count` fleets of a fresh label, each leased by a runner of its own; then the first fleet's lease lapses
 * and goes to another runner (`taker`, holding `current`): its old holder (`lapsed`) is now stale.
 */
export async function heldWithLapse(label: string, count: number, messages: number) {
  const { fleetIds, events } = await busyFleets(label, count, messages);
  const runners = await Promise.all(Array.from({ length: count }, () => enrollRunner({ labels: [label] })));
  const held = await Promise.all(
    runners.map(async (runner) => ({ runner, lease: (await acquire(runner)).body.lease! })),
  );
  expect(held.map(({ lease }) => lease.fleet_id).sort()).toEqual([...fleetIds].sort());
  const lapsed = held[0]!;
  await expire(lapsed.lease.lease_id);
  const taker = await enrollRunner({ labels: [label] });
  const current = (await acquire(taker)).body.lease!;
  expect(current.fleet_id).toBe(lapsed.lease.fleet_id);
  return { fleetIds, events, held, lapsed, taker, current };
}
