import { request } from "node:http";
import type { OutputOf } from "@fleet/contracts";
import type { createFleetSchedule } from "@fleet/contracts/fleet-schedules/create-fleet-schedule";
import type { renewLease } from "@fleet/contracts/leases/renew-lease";
import type { listRunnerLeases } from "@fleet/contracts/runners/list-runner-leases";
import { fleetEvents, fleets, leases, sql } from "@fleet/db";
import { describe, expect, it } from "vitest";
import { labelledFleet, messageFleet, uniqueLabel } from "./fleet-fixtures.ts";
import { call, databaseKind, seedTenant, type Tenant, testApi, useIsolatedApi } from "./harness.ts";
import {
  acquire,
  type EnrolledRunner,
  enrollRunner,
  type HeldLease,
  report as reportLease,
} from "./runner-fixtures.ts";

/** A report carrying the meters the tests read back. */
function report(runner: EnrolledRunner, lease: HeldLease, extra: Record<string, unknown> = {}) {
  return reportLease(runner, lease, {
    response_text: "All quiet.",
    tokens: 120,
    wall_ms: 900,
    cost_nanos: 5000,
    ...extra,
  });
}

/** Ends the lease's life as the clock would, without waiting 30 s. */
async function expire(leaseId: string) {
  const api = await testApi();
  const [lease] = await api.database.db
    .update(leases)
    .set({ expiresAt: Date.now() - 1 })
    .where(sql`${leases.id} = ${leaseId}`)
    .returning();
  await api.database.db
    .update(fleets)
    .set({ leasedUntil: Date.now() - 1 })
    .where(sql`${fleets.id} = ${lease!.fleetId}`);
}

/** A labelled fleet of its own with one waiting message. */
async function labelledWork(tenant: Tenant, label: string): Promise<{ fleetId: string; eventId: string }> {
  const fleetId = await labelledFleet(tenant, label);
  const eventId = await messageFleet(tenant, fleetId, `work for ${label}`);
  return { fleetId, eventId };
}

// Runners lease any tenant's waiting work: this file runs on a database of its own.
useIsolatedApi();

describe("leases", () => {
  it("leases a message, takes its report, and the event holds the answer", async () => {
    const tenant = await seedTenant();
    const label = uniqueLabel();
    const { fleetId, eventId } = await labelledWork(tenant, label);
    const runner = await enrollRunner({ labels: [label] });
    const answer = await acquire(runner);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const lease = answer.body.lease!;
    expect(lease).toMatchObject({ fleet_id: fleetId, event_id: eventId, kind: "fresh", fencing_token: 1 });
    expect(JSON.parse(lease.event.request_json)).toEqual({ message: `work for ${label}` });

    const renewed = await call<OutputOf<typeof renewLease>>(
      "POST",
      `/v1/runners/me/leases/${lease.lease_id}/renew`,
      { token: runner.token, body: { fencing_token: lease.fencing_token } },
    );
    expect(renewed.status).toBe(200);
    expect(renewed.body.expires_at).toBeGreaterThanOrEqual(lease.expires_at);

    const done = await report(runner, lease);
    expect(done.status).toBe(200);
    expect(done.body).toEqual({ lease_id: lease.lease_id, event_id: eventId, outcome: "succeeded" });
    const event = await call(
      "GET",
      `/v1/workspaces/${tenant.workspaceId}/fleets/${fleetId}/events/${eventId}`,
      { token: tenant.apiKey },
    );
    expect(event.body).toMatchObject({
      status: "processed",
      response_text: "All quiet.",
      tokens: 120,
      wall_ms: 900,
      cost_nanos: 5000,
    });
    const fleet = await call("GET", `/v1/workspaces/${tenant.workspaceId}/fleets/${fleetId}`, {
      token: tenant.apiKey,
    });
    expect(fleet.body).toMatchObject({ events_processed: 1, budget_used_nanos: 5000 });
    expect((await report(runner, lease)).status).toBe(409); // the lease has ended
  });

  it("leases only fleets whose required labels are all among the runner's", async () => {
    const tenant = await seedTenant();
    const label = uniqueLabel();
    await labelledWork(tenant, label);
    const without = await enrollRunner({ labels: [uniqueLabel()] });
    expect((await acquire(without)).body.lease).toBeNull();
    const withIt = await enrollRunner({ labels: [label, "extra"] });
    expect((await acquire(withIt)).body.lease).not.toBeNull();
  });

  it("gives one lease to 50 concurrent acquires for one fleet", async () => {
    const tenant = await seedTenant();
    const label = uniqueLabel();
    const { fleetId } = await labelledWork(tenant, label);
    await messageFleet(tenant, fleetId, "second");
    const runners = await Promise.all(Array.from({ length: 5 }, () => enrollRunner({ labels: [label] })));
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => acquire(runners[i % 5]!)));
    for (const answer of answers) expect(answer.status).toBe(200);
    const granted = answers.filter((answer) => answer.body.lease !== null);
    expect(granted).toHaveLength(1);
    expect(granted[0]!.body.lease!.fencing_token).toBe(1);
  });

  it("wakes a waiting acquire when a message arrives", async () => {
    const tenant = await seedTenant();
    const label = uniqueLabel();
    const fleetId = await labelledFleet(tenant, label);
    const runner = await enrollRunner({ labels: [label] });
    const started = Date.now();
    const waiting = acquire(runner, 10_000);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const eventId = await messageFleet(tenant, fleetId, "wake up");
    const answer = await waiting;
    const waited = Date.now() - started;
    expect(answer.body.lease?.event_id).toBe(eventId);
    expect(waited).toBeLessThan(5_000); // woken by the message, not by the 5 s re-poll
    const idle = await acquire(runner, 200);
    expect(idle.body).toMatchObject({ lease: null });
  });

  it("wakes a waiting acquire when a report frees a busy fleet's next message", async () => {
    const tenant = await seedTenant();
    const label = uniqueLabel();
    const { fleetId } = await labelledWork(tenant, label);
    const first = await enrollRunner({ labels: [label] });
    const held = await acquire(first);
    expect(held.body.lease).not.toBeNull();
    const next = await messageFleet(tenant, fleetId, "second message");
    // The fleet is leased: the second runner finds nothing it may take, and waits.
    const second = await enrollRunner({ labels: [label] });
    const waiting = acquire(second, 10_000);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const reported = Date.now();
    expect((await report(first, held.body.lease!)).status).toBe(200);
    const answer = await waiting;
    expect(answer.body.lease?.event_id).toBe(next);
    expect(Date.now() - reported).toBeLessThan(2_500); // the 5 s re-poll would come later
  });

  // PGlite has one connection: the held transaction below would hold the lease request too. On
  // PostgreSQL, another connection holds the lock every event insert's foreign key takes on its fleet.
  it.runIf(databaseKind === "postgres")(
    "leases, renews and reports a fleet's work while a message for that fleet is being stored",
    async () => {
      const tenant = await seedTenant();
      const label = uniqueLabel();
      const { fleetId, eventId } = await labelledWork(tenant, label);
      const runner = await enrollRunner({ labels: [label] });
      const api = await testApi();
      const answers: { step: string; status: number | "waited 3 s" }[] = [];
      const within = async <T extends { status: number }>(step: string, answer: Promise<T>) => {
        const timer = new Promise<null>((resolve) => setTimeout(() => resolve(null), 3000));
        const settled: T | null = await Promise.race([answer, timer]);
        answers.push({ step, status: settled === null ? "waited 3 s" : settled.status });
        return settled;
      };
      let lease: HeldLease | null | undefined;
      // Held while the runner leases, renews and reports. Leasing used to lock the fleet `for update`:
      // it passed a fleet receiving a message over (skip locked: no lease), and a report or a renewal
      // waited for the message's transaction to end.
      await api.database.db.transaction(async (tx) => {
        await tx.execute(sql`select id from fleets where id = ${fleetId} for key share`);
        lease = (await within("lease", acquire(runner)))?.body.lease;
        if (!lease) return;
        await within(
          "renew",
          call("POST", `/v1/runners/me/leases/${lease.lease_id}/renew`, {
            token: runner.token,
            body: { fencing_token: lease.fencing_token },
          }),
        );
        await within("report", report(runner, lease));
      });
      expect(lease, JSON.stringify(answers)).toMatchObject({ fleet_id: fleetId, event_id: eventId });
      expect(answers).toEqual([
        { step: "lease", status: 200 },
        { step: "renew", status: 200 },
        { step: "report", status: 200 },
      ]);
    },
  );

  it("leases nothing to a runner that hung up while waiting", async () => {
    const tenant = await seedTenant();
    const label = uniqueLabel();
    const fleetId = await labelledFleet(tenant, label);
    const runner = await enrollRunner({ labels: [label] });
    const api = await testApi();
    const gone = request(`${api.baseUrl}/v1/runners/me/leases`, {
      method: "POST",
      headers: { authorization: `Bearer ${runner.token}`, "content-type": "application/json" },
    });
    gone.on("error", () => {}); // destroyed below, on purpose
    gone.end(JSON.stringify({ wait_ms: 10_000 }));
    await new Promise((resolve) => setTimeout(resolve, 300));
    gone.destroy();
    await new Promise((resolve) => setTimeout(resolve, 100));
    const eventId = await messageFleet(tenant, fleetId, "for whoever is there");
    await new Promise((resolve) => setTimeout(resolve, 300));
    // Nothing went to the closed connection: the work is free, and its first lease holds token 1.
    const answer = await acquire(runner);
    expect(answer.body.lease).toMatchObject({ event_id: eventId, fencing_token: 1, kind: "fresh" });
    // The given-up poll is in the access log, as a client that closed the request.
    const abandoned = api.logs
      .map((line) => JSON.parse(line) as { route?: string; status?: number; msg?: string })
      .filter((line) => line.msg === "request" && line.route === "/v1/runners/me/leases");
    expect(abandoned.some((line) => line.status === 499)).toBe(true);
  });

  // One connection on PGlite: the interleaving below needs a second session holding a lock.
  it.runIf(databaseKind === "postgres")(
    "refuses a renew that meets its lease marked expired meanwhile, and the fleet's work goes out again",
    async () => {
      const tenant = await seedTenant();
      const label = uniqueLabel();
      const { fleetId } = await labelledWork(tenant, label);
      const runner = await enrollRunner({ labels: [label] });
      const lease = (await acquire(runner)).body.lease!;
      await expire(lease.lease_id);
      const api = await testApi();
      let renewed: Promise<{ status: number; body: Record<string, unknown> }> | undefined;
      // Hold the fleet row: the renew reads the lease (still running), then waits for the fleet's lock.
      await api.database.db.transaction(async (tx) => {
        await tx.execute(sql`select 1 from fleets where id = ${fleetId} for update`);
        renewed = call("POST", `/v1/runners/me/leases/${lease.lease_id}/renew`, {
          token: runner.token,
          body: { fencing_token: lease.fencing_token },
        });
        await new Promise((resolve) => setTimeout(resolve, 300));
        // Meanwhile the lapsed lease is marked expired, as an acquire for its fleet does.
        await api.database.db
          .update(leases)
          .set({ status: "expired", endedAt: Date.now() })
          .where(sql`${leases.id} = ${lease.lease_id}`);
      });
      const answer = await renewed!;
      expect(answer.status, JSON.stringify(answer.body)).toBe(409);
      expect(answer.body).toMatchObject({ error_code: "UZ-RUN-005", current_state: "expired" });
      // Not revived: the fleet is not held for a lease that is over, and its work is leased again.
      const next = await acquire(await enrollRunner({ labels: [label] }));
      expect(next.body.lease).toMatchObject({ fleet_id: fleetId, kind: "reclaim", fencing_token: 2 });
    },
  );

  it("hands expired work out again with a higher token, refusing the old holder everywhere", async () => {
    const tenant = await seedTenant();
    const label = uniqueLabel();
    const { eventId } = await labelledWork(tenant, label);
    const first = await enrollRunner({ labels: [label] });
    const second = await enrollRunner({ labels: [label] });
    const old = (await acquire(first)).body.lease!;
    expect((await acquire(second)).body.lease).toBeNull();
    await expire(old.lease_id);
    const fresh = (await acquire(second)).body.lease!;
    expect(fresh).toMatchObject({ event_id: eventId, kind: "reclaim", fencing_token: old.fencing_token + 1 });
    // A schedule the fleet made under the new lease, for the old holder to try to touch.
    const made = await call<OutputOf<typeof createFleetSchedule>>(
      "POST",
      `/v1/runners/me/leases/${fresh.lease_id}/schedules`,
      {
        token: second.token,
        body: { fencing_token: fresh.fencing_token, cron: "0 8 * * *", message: "made by the new holder" },
      },
    );
    expect(made.status).toBe(201);
    const schedule = `${`/v1/runners/me/leases/${old.lease_id}`}/schedules/${made.body.schedule_id}`;

    const base = `/v1/runners/me/leases/${old.lease_id}`;
    const stale = [
      await report(first, old),
      await call("POST", `${base}/renew`, { token: first.token, body: { fencing_token: old.fencing_token } }),
      await call("PUT", `${base}/memories/notes`, {
        token: first.token,
        body: { fencing_token: old.fencing_token, content: "stale" },
      }),
      await call("DELETE", `${base}/memories/notes?fencing_token=${old.fencing_token}`, {
        token: first.token,
      }),
      await call("POST", `${base}/activity`, {
        token: first.token,
        body: { frames: [{ tool_call_started: { name: "search", args_redacted: "{}" } }] },
      }),
      await call("POST", `${base}/schedules`, {
        token: first.token,
        body: { fencing_token: old.fencing_token, cron: "0 9 * * *", message: "stale" },
      }),
      await call("GET", `${base}/schedules?fencing_token=${old.fencing_token}`, { token: first.token }),
      await call("PATCH", schedule, {
        token: first.token,
        body: { fencing_token: old.fencing_token, status: "paused" },
      }),
      await call("DELETE", `${schedule}?fencing_token=${old.fencing_token}`, { token: first.token }),
      await call("POST", `${schedule}/runs`, {
        token: first.token,
        body: { fencing_token: old.fencing_token },
      }),
    ];
    for (const refused of stale) {
      expect(refused.status, refused.text).toBe(409);
      expect(refused.body.error_code).toBe("UZ-RUN-005");
    }
    // The new holder's token, borrowed by the old holder, is still refused: the lease is not theirs.
    const borrowed = await call("POST", `${base}/renew`, {
      token: first.token,
      body: { fencing_token: fresh.fencing_token },
    });
    expect(borrowed.status).toBe(409);
    expect((await report(second, fresh)).status).toBe(200);

    const history = await call<OutputOf<typeof listRunnerLeases>>(
      "GET",
      `/v1/fleets/runners/${first.runnerId}/leases`,
      { token: await (await import("./harness.ts")).operatorToken(["runner:read"]) },
    );
    expect(history.body.items).toMatchObject([{ lease_id: old.lease_id, outcome: "expired" }]);
  });

  it("hands released work to another runner at once, refusing the releasing holder afterwards", async () => {
    const tenant = await seedTenant();
    const label = uniqueLabel();
    const { eventId } = await labelledWork(tenant, label);
    const leaving = await enrollRunner({ labels: [label] });
    const staying = await enrollRunner({ labels: [label] });
    const given = (await acquire(leaving)).body.lease!;
    const released = await call("POST", `/v1/runners/me/leases/${given.lease_id}/release`, {
      token: leaving.token,
      body: { fencing_token: given.fencing_token },
    });
    expect(released.status, released.text).toBe(200);
    expect(released.body).toEqual({ lease_id: given.lease_id, released: true });
    const next = (await acquire(staying)).body.lease!;
    expect(next).toMatchObject({
      event_id: eventId,
      kind: "reclaim",
      fencing_token: given.fencing_token + 1,
    });
    for (const refused of [
      await report(leaving, given),
      await call("POST", `/v1/runners/me/leases/${given.lease_id}/release`, {
        token: leaving.token,
        body: { fencing_token: given.fencing_token },
      }),
    ]) {
      expect(refused.status).toBe(409);
      expect(refused.body.error_code).toBe("UZ-RUN-005");
    }
    expect((await report(staying, next)).status).toBe(200);
  });

  it("refuses another runner's lease as absent, and a lease whose event is gone reads unknown", async () => {
    const tenant = await seedTenant();
    const label = uniqueLabel();
    const { fleetId } = await labelledWork(tenant, label);
    const holder = await enrollRunner({ labels: [label] });
    const other = await enrollRunner({ labels: [uniqueLabel()] });
    const lease = (await acquire(holder)).body.lease!;
    const foreign = await call("POST", `/v1/runners/me/leases/${lease.lease_id}/renew`, {
      token: other.token,
      body: { fencing_token: lease.fencing_token },
    });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error_code).toBe("UZ-RUN-001");
    const bad = await call("POST", "/v1/runners/me/leases/not-a-uuid/renew", {
      token: holder.token,
      body: { fencing_token: 1 },
    });
    expect(bad.status).toBe(400);

    await (await testApi()).database.db.delete(fleetEvents).where(sql`${fleetEvents.fleetId} = ${fleetId}`);
    const { operatorToken } = await import("./harness.ts");
    const history = await call<OutputOf<typeof listRunnerLeases>>(
      "GET",
      `/v1/fleets/runners/${holder.runnerId}/leases`,
      { token: await operatorToken(["runner:read"]) },
    );
    expect(history.body.items[0]).toMatchObject({ outcome: "unknown" });
  });
});
