import { eq, runnerEvents, runners } from "@fleet/db";
import { describe, expect, it } from "vitest";
import { sweepOfflineRunners } from "../src/services/runners/offline-sweep.ts";
import { ONLINE_WINDOW_MS } from "../src/services/runners/policy.ts";
import { deliverDueWebhooks } from "../src/services/webhook-endpoints/delivery.ts";
import { installFleet, labelledFleet, messageFleet, uniqueLabel } from "./fleet-fixtures.ts";
import { call, operatorToken, seedTenant, testApi, useIsolatedApi } from "./harness.ts";
import { acquire, type EnrolledRunner, enrollRunner, fullReport, type HeldLease } from "./runner-fixtures.ts";
import { deliveries, subscribe, useLocalReceiver, verified } from "./webhook-delivery-fixtures.ts";

/** A runner that goes quiet is found by a sweep, and the workspaces whose fleets it served are told. */
describe("runners gone quiet: the offline sweep and runner.offline", () => {
  useIsolatedApi({ FLEET_DEV_MODE: "true" });
  const local = useLocalReceiver();

  const sweepAt = async (now: number) => {
    const api = await testApi();
    return sweepOfflineRunners({ ...api.app.services, now: () => now });
  };
  const runnerRow = async (runnerId: string) => {
    const api = await testApi();
    const [row] = await api.database.db.select().from(runners).where(eq(runners.id, runnerId));
    return row!;
  };
  const eventsOf = async (runnerId: string) => {
    const api = await testApi();
    const rows = await api.database.db.select().from(runnerEvents).where(eq(runnerEvents.runnerId, runnerId));
    return rows.map((row) => ({ type: row.eventType, at: row.createdAt })).sort((a, b) => a.at - b.at);
  };
  const heartbeat = (runner: EnrolledRunner) =>
    call("POST", "/v1/runners/me/heartbeats", {
      token: runner.token,
      body: { capability_report: fullReport },
    });

  it("marks each lapse once, and tells each served fleet's workspace of that fleet's leases only", {
    timeout: 90_000,
  }, async () => {
    const receiver = local();
    const label = uniqueLabel();
    const owner = await seedTenant();
    const other = await seedTenant("other");
    const bystander = await seedTenant("bystander");
    const ownFleet = await labelledFleet(owner, label);
    const otherFleet = await labelledFleet(other, label);
    const watching = await subscribe(owner, `${receiver.url}/owner`, ["runner.offline"]);
    // Filtered to a fleet the runner never served: nothing for it.
    const idle = await subscribe(owner, `${receiver.url}/idle`, ["runner.offline"], {
      fleet_id: await installFleet(owner),
    });
    const otherWatching = await subscribe(other, `${receiver.url}/other`, ["runner.offline"]);
    const unserved = await subscribe(bystander, `${receiver.url}/bystander`, ["runner.offline"]);
    await messageFleet(owner, ownFleet);
    await messageFleet(other, otherFleet);
    const runner = await enrollRunner({
      labels: [label],
      policy: { sandbox_tier: "landlock_full", worker_count: 4 },
    });
    const held: HeldLease[] = [];
    for (let i = 0; i < 2; i++) {
      const leased = await acquire(runner, 5_000);
      expect(leased.status, leased.text).toBe(200);
      held.push(leased.body.lease!);
    }
    const ownLease = held.find((lease) => lease.fleet_id === ownFleet)!;
    expect(held.map((lease) => lease.fleet_id).sort()).toEqual([ownFleet, otherFleet].sort());

    const last = (await runnerRow(runner.runnerId)).lastHeartbeatAt!;
    // At the window's edge the runner still reads online.
    expect(await sweepAt(last + ONLINE_WINDOW_MS)).toEqual([]);
    // Past it, two sweeps racing mark it once.
    const swept = await Promise.all([
      sweepAt(last + ONLINE_WINDOW_MS + 1),
      sweepAt(last + ONLINE_WINDOW_MS + 1),
    ]);
    expect(swept.flat()).toEqual([runner.runnerId]);
    expect(await sweepAt(last + ONLINE_WINDOW_MS + 60_000)).toEqual([]);
    expect((await runnerRow(runner.runnerId)).offlineAt).toBe(last + ONLINE_WINDOW_MS);
    expect(await eventsOf(runner.runnerId)).toContainEqual({
      type: "runner_offline",
      at: last + ONLINE_WINDOW_MS,
    });

    // The deliverer on the sweep's clock (the events are due when the sweep ran).
    const api = await testApi();
    await deliverDueWebhooks({ ...api.app.services, now: () => last + ONLINE_WINDOW_MS + 60_000 }, () => {});

    // The owner's workspace hears of its own fleet and lease, signed, and nothing of the other tenant's.
    const own = verified(
      watching.secret,
      await receiver.waitFor((d) => d.path.endsWith("/owner") && d.body.includes('"runner.offline"'), 15_000),
    );
    expect(own.data).toEqual({
      runner_id: runner.runnerId,
      labels: [label],
      last_heartbeat_at: last,
      offline_at: last + ONLINE_WINDOW_MS,
      fleet_id: ownFleet,
      held_leases: [
        { lease_id: ownLease.lease_id, event_id: ownLease.event_id, expires_at: expect.any(Number) },
      ],
    });
    expect(JSON.stringify(own)).not.toContain(otherFleet);
    expect(JSON.stringify(own)).not.toContain("host");
    const theirs = verified(
      otherWatching.secret,
      await receiver.waitFor((d) => d.path.endsWith("/other") && d.body.includes('"runner.offline"'), 15_000),
    );
    expect(theirs.data.fleet_id).toBe(otherFleet);
    expect(JSON.stringify(theirs)).not.toContain(ownFleet);
    // Once each, even with the races above; none for a fleet or a tenant it never served.
    expect((await deliveries(owner, watching.id)).items).toHaveLength(1);
    expect((await deliveries(other, otherWatching.id)).items).toHaveLength(1);
    expect((await deliveries(owner, idle.id)).items).toHaveLength(0);
    expect((await deliveries(bystander, unserved.id)).items).toHaveLength(0);

    // Its next heartbeat clears the mark and says it is back, without a second runner_offline.
    const count = async (type: string) =>
      (await eventsOf(runner.runnerId)).filter((event) => event.type === type).length;
    const online = await count("runner_online");
    const back = await heartbeat(runner);
    expect(back.status, back.text).toBe(200);
    expect((await runnerRow(runner.runnerId)).offlineAt).toBeNull();
    expect(await count("runner_offline")).toBe(1);
    expect(await count("runner_online")).toBe(online + 1);
  });

  it("leaves a revoked runner, and one that never heartbeated, unmarked", { timeout: 60_000 }, async () => {
    const silent = await enrollRunner({ heartbeat: false });
    const revoked = await enrollRunner();
    const revoke = await call("PATCH", `/v1/fleets/runners/${revoked.runnerId}`, {
      token: await operatorToken(["runner:admin"]),
      body: { status: "revoked" },
    });
    expect(revoke.status, revoke.text).toBe(200);
    const marked = await sweepAt(Date.now() + 10 * ONLINE_WINDOW_MS);
    expect(marked).not.toContain(silent.runnerId);
    expect(marked).not.toContain(revoked.runnerId);
  });
});
