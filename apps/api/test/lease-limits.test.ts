import type { OutputOf } from "@fleet/contracts";
import type { renewLease } from "@fleet/contracts/leases/renew-lease";
import type { listRunnerLeases } from "@fleet/contracts/runners/list-runner-leases";
import { leases, sql } from "@fleet/db";
import { describe, expect, it } from "vitest";
import { labelledFleet, messageFleet, uniqueLabel } from "./fleet-fixtures.ts";
import { call, operatorToken, seedTenant, testApi, useIsolatedApi } from "./harness.ts";
import { acquire, type EnrolledRunner, enrollRunner, type HeldLease, report } from "./runner-fixtures.ts";

const HOUR = 60 * 60 * 1000;

/** A runner holding the lease of a fresh fleet's one message. */
async function heldLease(message = "work") {
  const tenant = await seedTenant();
  const label = uniqueLabel();
  const fleetId = await labelledFleet(tenant, label);
  await messageFleet(tenant, fleetId, message);
  const runner = await enrollRunner({ labels: [label] });
  const answer = await acquire(runner);
  expect(answer.body.lease, answer.text).not.toBeNull();
  return { tenant, label, fleetId, runner, lease: answer.body.lease! };
}

function renew(runner: EnrolledRunner, lease: HeldLease) {
  return call<OutputOf<typeof renewLease>>("POST", `/v1/runners/me/leases/${lease.lease_id}/renew`, {
    token: runner.token,
    body: { fencing_token: lease.fencing_token },
  });
}

/** Moves the lease's start back in the store, as if it had been renewed since `createdAt`. */
async function startedAt(leaseId: string, createdAt: number) {
  const api = await testApi();
  await api.database.db.update(leases).set({ createdAt }).where(sql`${leases.id} = ${leaseId}`);
}

async function storedExpiry(leaseId: string): Promise<number> {
  const api = await testApi();
  const [row] = await api.database.db
    .select({ expiresAt: leases.expiresAt })
    .from(leases)
    .where(sql`${leases.id} = ${leaseId}`);
  return row!.expiresAt;
}

// Runners lease any tenant's waiting work: this file runs on a database of its own.
useIsolatedApi();

describe("lease limits", () => {
  it("refuses a negative or fractional wait_ms, and holds a wait above 30 s for 30 s only", async () => {
    const runner = await enrollRunner({ labels: [uniqueLabel()] });
    for (const wait_ms of [-1, 1.5, "10"]) {
      const refused = await call("POST", "/v1/runners/me/leases", { token: runner.token, body: { wait_ms } });
      expect(refused.status, String(wait_ms)).toBe(400);
      expect(refused.body.error_code).toBe("UZ-REQ-001");
    }

    // The service's clock is moved on instead of waiting 30 s; a message for a fleet this runner cannot
    // serve wakes the waiting acquire, which then judges its deadline by that clock.
    const api = await testApi();
    const realNow = api.app.services.now;
    let ahead = 0;
    api.app.services.now = () => realNow() + ahead;
    try {
      const tenant = await seedTenant();
      const elsewhere = await labelledFleet(tenant, uniqueLabel());
      let settled = false;
      const waiting = acquire(runner, 60 * 60 * 1000).finally(() => {
        settled = true;
      });
      await new Promise((resolve) => setTimeout(resolve, 300));
      ahead = 25_000;
      await messageFleet(tenant, elsewhere, "not for this runner");
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(settled).toBe(false); // 25 s into the wait it is still held

      ahead = 30_000;
      await messageFleet(tenant, elsewhere, "still not for this runner");
      // Answered at the wake, on the 30 s deadline: an hour's wait would sleep on through the re-poll.
      const answer = await Promise.race([
        waiting,
        new Promise<null>((resolve) => setTimeout(() => resolve(null), 2_000)),
      ]);
      expect(answer, "no answer 2 s after the 30 s deadline passed").not.toBeNull();
      expect(answer!.status, answer!.text).toBe(200);
      expect(answer!.body).toEqual({ lease: null, retry_after_ms: 1_000 });
    } finally {
      api.app.services.now = realNow;
    }
  });

  it("renews to now + 30 s at most, and never past created_at + 12 h", async () => {
    const { label, runner, lease } = await heldLease();
    const before = Date.now();
    const plain = await renew(runner, lease);
    expect(plain.status, plain.text).toBe(200);
    expect(plain.body.expires_at).toBeGreaterThanOrEqual(before + 30_000);
    expect(plain.body.expires_at).toBeLessThanOrEqual(Date.now() + 30_000);

    // Ten seconds of its twelve hours left: the renewal stops at the twelve hours.
    const createdAt = Date.now() - 12 * HOUR + 10_000;
    await startedAt(lease.lease_id, createdAt);
    const capped = await renew(runner, lease);
    expect(capped.status, capped.text).toBe(200);
    expect(capped.body.expires_at).toBe(createdAt + 12 * HOUR);
    expect(await storedExpiry(lease.lease_id)).toBe(createdAt + 12 * HOUR);

    // Past its twelve hours: a renewal extends nothing, and the work goes to another runner.
    const longAgo = Date.now() - 12 * HOUR - 1_000;
    await startedAt(lease.lease_id, longAgo);
    const spent = await renew(runner, lease);
    expect(spent.status, spent.text).toBe(200);
    expect(spent.body.expires_at).toBe(longAgo + 12 * HOUR);
    const next = await acquire(await enrollRunner({ labels: [label] }));
    expect(next.body.lease).toMatchObject({
      event_id: lease.event_id,
      kind: "reclaim",
      fencing_token: lease.fencing_token + 1,
    });
  });

  it("lists a runner's leases without request_json, running or reported", async () => {
    const body = `request body ${Math.random().toString(36).slice(2)}`;
    const { tenant, fleetId, runner, lease } = await heldLease(body);
    const reported = await report(runner, lease);
    expect(reported.status, reported.text).toBe(200);
    await messageFleet(tenant, fleetId, body);
    const running = (await acquire(runner)).body.lease!;
    expect(running).not.toBeNull();

    const page = await call<OutputOf<typeof listRunnerLeases>>(
      "GET",
      `/v1/fleets/runners/${runner.runnerId}/leases`,
      { token: await operatorToken(["runner:read"]) },
    );
    expect(page.status, page.text).toBe(200);
    expect(page.body.items).toMatchObject([
      { lease_id: running.lease_id, outcome: "running" },
      { lease_id: lease.lease_id, outcome: "succeeded" },
    ]);
    for (const item of page.body.items) expect(item).not.toHaveProperty("request_json");
    expect(page.text).not.toContain("request_json");
    expect(page.text).not.toContain(body);
  });
});
