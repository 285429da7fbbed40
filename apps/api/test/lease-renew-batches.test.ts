import { eq, fleets, leases, sql } from "@fleet/db";
import { describe, expect, it } from "vitest";
import { newId } from "../src/runtime/ids.ts";
import { renewMany } from "../src/services/leases/renew-batches.ts";
import { uniqueLabel } from "./fleet-fixtures.ts";
import { testApi, useIsolatedApi } from "./harness.ts";
import { busyFleets, expire, heldWithLapse, renew } from "./lease-batch-fixtures.ts";
import { acquire, type EnrolledRunner, enrollRunner, type HeldLease, report } from "./runner-fixtures.ts";

// Issue 34: renewals are batched (one statement and one commit per batch). The races and rules the batch
// must hold as the fenced transaction did: a stale holder or token extends nothing, an ended lease is never
// extended, a run past its cap or its fleet's budget for the period is refused.
useIsolatedApi();

type Holder = { lease: HeldLease; runner: EnrolledRunner };

describe("lease renewal batches", () => {
  it("extends only the current holder's lease when stale and current renewals share a statement", async () => {
    const label = uniqueLabel();
    const { fleetIds } = await busyFleets(label, 1, 1);
    const fleetId = fleetIds[0]!;
    const first = await enrollRunner({ labels: [label] });
    const second = await enrollRunner({ labels: [label] });
    const old = (await acquire(first)).body.lease!;
    await expire(old.lease_id);
    const current = (await acquire(second)).body.lease!;
    const api = await testApi();
    const at = Date.now() + 5_000;
    const row = (runnerId: string, leaseId: string, fencingToken: number) => ({
      id: newId(at),
      leaseId,
      runnerId,
      fencingToken,
      at,
      ttlMs: 30_000,
      period: new Date(at).toISOString().slice(0, 7),
    });
    const rows = [
      row(first.runnerId, old.lease_id, old.fencing_token),
      row(second.runnerId, current.lease_id, old.fencing_token),
      row(first.runnerId, current.lease_id, current.fencing_token),
      row(second.runnerId, current.lease_id, current.fencing_token),
    ];
    const [lapsedBefore] = await api.database.db.select().from(leases).where(eq(leases.id, old.lease_id));
    const answers = await renewMany(api.database.db, rows);
    expect(rows.map((one) => answers.get(one.id))).toEqual([null, null, null, at + 30_000]);
    const [lease] = await api.database.db.select().from(leases).where(eq(leases.id, current.lease_id));
    expect(lease!.expiresAt).toBe(at + 30_000);
    const [fleet] = await api.database.db.select().from(fleets).where(eq(fleets.id, fleetId));
    expect(fleet!.leasedUntil).toBe(at + 30_000);
    // The lapsed lease stays as it was: marked expired by the acquire, never extended.
    const [lapsed] = await api.database.db.select().from(leases).where(eq(leases.id, old.lease_id));
    expect(lapsed).toEqual(lapsedBefore);
    // A running lease whose fleet has moved on (its fencing sequence bumped past the token) is not renewed.
    await api.database.db
      .update(fleets)
      .set({ fenceSeq: current.fencing_token + 1 })
      .where(eq(fleets.id, fleetId));
    const moved = { ...rows[3]!, id: newId(at) };
    expect((await renewMany(api.database.db, [moved])).get(moved.id)).toBeNull();
  });

  it("renews in a batch only runs within their cap and their fleet's budget for this period", async () => {
    const label = uniqueLabel();
    const { fleetIds } = await busyFleets(label, 4, 1);
    const runners = await Promise.all(fleetIds.map(() => enrollRunner({ labels: [label] })));
    const held = await Promise.all(runners.map(async (runner) => (await acquire(runner)).body.lease!));
    const api = await testApi();
    const at = Date.now();
    const period = new Date(at).toISOString().slice(0, 7);
    const byFleet = new Map(held.map((lease, n) => [lease.fleet_id, { lease, runner: runners[n]! }]));
    const [capped, spent, earlier, debited] = fleetIds.map((id) => byFleet.get(id)!) as [
      Holder,
      Holder,
      Holder,
      Holder,
    ];
    const set = async (
      fleetId: string,
      fleet: Partial<typeof fleets.$inferInsert>,
      usage: number,
      model = 0,
    ) => {
      await api.database.db.update(fleets).set(fleet).where(eq(fleets.id, fleetId));
      await api.database.db
        .update(leases)
        .set({ usageNanos: usage, modelNanos: model })
        .where(sql`${leases.fleetId} = ${fleetId} and ${leases.status} = 'running'`);
    };
    // The run has spent its cap.
    await set(capped.lease.fleet_id, { runBudgetNanos: 1_000 }, 1_000);
    // The fleet's spend this period and the run's together reach the period budget.
    await set(
      spent.lease.fleet_id,
      { periodBudgetNanos: 1_000, spendPeriod: period, periodSpendNanos: 600 },
      400,
    );
    // The same spend, but of an earlier period: this period's is 0.
    await set(
      earlier.lease.fleet_id,
      { periodBudgetNanos: 1_000, spendPeriod: "2000-01", periodSpendNanos: 600 },
      400,
    );
    // The run's gateway calls (model_nanos) are already in the fleet's spend: counted once, 600 + 400 - 300.
    await set(
      debited.lease.fleet_id,
      { periodBudgetNanos: 1_000, spendPeriod: period, periodSpendNanos: 600 },
      400,
      300,
    );
    const rows = [capped, spent, earlier, debited].map(({ lease, runner }) => ({
      id: newId(at),
      leaseId: lease.lease_id,
      runnerId: runner.runnerId,
      fencingToken: lease.fencing_token,
      at,
      ttlMs: 30_000,
      period,
    }));
    const answers = await renewMany(api.database.db, rows);
    expect(rows.map((row) => answers.get(row.id))).toEqual([null, null, at + 30_000, at + 30_000]);
    // Over HTTP the refused ones are told why.
    const refused = await renew(capped.runner, capped.lease);
    expect(refused.status).toBe(409);
    expect(refused.body.error_code).toBe("UZ-BUDGET-001");
    expect((await renew(spent.runner, spent.lease)).body.error_code).toBe("UZ-BUDGET-001");
  });

  it("renews racing holders over HTTP, refusing stale tokens and a lease its report ended", async () => {
    const label = uniqueLabel();
    const { held, lapsed, taker, current } = await heldWithLapse(label, 4, 2);
    const ending = held[1]!;
    const sent = await Promise.all([
      renew(lapsed.runner, lapsed.lease),
      renew(taker, current, lapsed.lease.fencing_token),
      renew(taker, current),
      renew(taker, current),
      report(ending.runner, ending.lease),
      renew(ending.runner, ending.lease),
      ...held.slice(2).flatMap(({ runner, lease }) => [renew(runner, lease), renew(runner, lease)]),
    ]);
    const [stale, staleToken, once, twice, ended, afterReport, ...rest] = sent;
    expect(stale!.status).toBe(409);
    expect(stale!.body.error_code).toBe("UZ-RUN-005");
    expect(staleToken!.status).toBe(409);
    expect([once!.status, twice!.status]).toEqual([200, 200]);
    expect(ended!.status).toBe(200);
    // Renewed before the report, or refused after it: never a lease revived once ended.
    expect([200, 409]).toContain(afterReport!.status);
    for (const answer of rest) expect(answer.status).toBe(200);
    const api = await testApi();
    const [endedLease] = await api.database.db
      .select()
      .from(leases)
      .where(eq(leases.id, ending.lease.lease_id));
    expect(endedLease!.status).toBe("succeeded");
    const [endedFleet] = await api.database.db
      .select()
      .from(fleets)
      .where(eq(fleets.id, ending.lease.fleet_id));
    expect(endedFleet!.leasedUntil).toBeNull();
    const [currentLease] = await api.database.db.select().from(leases).where(eq(leases.id, current.lease_id));
    expect(currentLease!.status).toBe("running");
    expect(currentLease!.expiresAt).toBeGreaterThan(Date.now());
  });
});
