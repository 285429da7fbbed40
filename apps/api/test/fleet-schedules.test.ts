import type { OutputOf } from "@fleet/contracts";
import type { listFleetSchedules } from "@fleet/contracts/fleet-schedules/list-fleet-schedules";
import type { runFleetSchedule } from "@fleet/contracts/fleet-schedules/run-fleet-schedule";
import type { createSchedule } from "@fleet/contracts/schedules/create-schedule";
import type { listSchedules } from "@fleet/contracts/schedules/list-schedules";
import { describe, expect, it } from "vitest";
import { installFromEntry, messageFleet, seedLibraryEntry } from "./fleet-fixtures.ts";
import {
  call,
  callAt,
  databaseKind,
  seedTenant,
  startApi,
  type Tenant,
  testApi,
  useIsolatedApi,
} from "./harness.ts";
import { acquire, enrollRunner, type HeldLease } from "./runner-fixtures.ts";
import { proxyTo } from "./tcp-proxy.ts";

const SECRET = "ghp_live_0123456789abcdef";

/** A fleet that declares GITHUB_TOKEN, the secret stored, a message waiting, and a runner holding its lease. */
async function leasedFleet(tenant: Tenant) {
  const label = `s-${Math.random().toString(36).slice(2, 10)}`;
  await call("POST", `/v1/workspaces/${tenant.workspaceId}/secrets`, {
    token: tenant.apiKey,
    body: { name: "GITHUB_TOKEN", data: { token: SECRET } },
  });
  const entry = await seedLibraryEntry({ credentials: ["GITHUB_TOKEN"], runnerLabels: [label] });
  const fleetId = await installFromEntry(tenant, entry);
  await messageFleet(tenant, fleetId);
  const runner = await enrollRunner({ labels: [label] });
  const lease = (await acquire(runner)).body.lease!;
  return { fleetId, runner, lease };
}

function create(token: string, lease: HeldLease, body: Record<string, unknown>) {
  return call<Record<string, unknown>>("POST", `/v1/runners/me/leases/${lease.lease_id}/schedules`, {
    token,
    body: { fencing_token: lease.fencing_token, ...body },
  });
}

// Runners lease any tenant's waiting work: this file runs on a database of its own.
useIsolatedApi();

describe("schedules a fleet creates while it runs", () => {
  it("creates for the lease's fleet with source fleet, masking its declared secrets out of the message", async () => {
    const tenant = await seedTenant();
    const { fleetId, runner, lease } = await leasedFleet(tenant);
    const created = await create(runner.token, lease, {
      cron: "0 8 * * *",
      message: `Check PRs with token ${SECRET} again`,
      once: true,
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({
      fleet_id: fleetId,
      source: "fleet",
      once: true,
      timezone: "UTC",
      sync: "synced",
      message: "Check PRs with token [secret:GITHUB_TOKEN] again",
    });
    expect(created.text).not.toContain(SECRET);
    const smuggled = await create(runner.token, lease, {
      cron: "0 8 * * *",
      message: "x",
      fleet_id: fleetId,
    });
    expect(smuggled.status).toBe(400);
    // No Idempotency-Key: the same request twice is two schedules.
    await create(runner.token, lease, { cron: "0 9 * * *", message: "twice" });
    await create(runner.token, lease, { cron: "0 9 * * *", message: "twice" });
    const list = await call<OutputOf<typeof listFleetSchedules>>(
      "GET",
      `/v1/runners/me/leases/${lease.lease_id}/schedules?fencing_token=${lease.fencing_token}`,
      { token: runner.token },
    );
    expect(list.body.items).toHaveLength(3);
  });

  it("gives exactly 16 of 40 concurrent creates; the rest are 409 at_capacity", async () => {
    const tenant = await seedTenant();
    const { runner, lease } = await leasedFleet(tenant);
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        create(runner.token, lease, { cron: `${i} * * * *`, message: `m${i}` }),
      ),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(16);
    for (const refused of answers.filter((a) => a.status !== 201)) {
      expect(refused.status).toBe(409);
      expect(refused.body).toMatchObject({ error_code: "UZ-SCHED-009", current_state: "at_capacity" });
    }
  });

  it("holds 32 in all when a person and the fleet create at once, of them at most 16 the fleet's", async () => {
    const tenant = await seedTenant();
    // Arrival order decides who wins, not the caps: interleaved, the fleet reaches its 16 first; with
    // the people's requests sent first, the 32 fills while the fleet holds fewer than 16.
    for (const peopleFirst of [false, true]) {
      const { fleetId, runner, lease } = await leasedFleet(tenant);
      const personal = `/v1/workspaces/${tenant.workspaceId}/fleets/${fleetId}/schedules`;
      const byFleet = (i: number) =>
        create(runner.token, lease, { cron: `${i} * * * *`, message: `fleet ${i}` }).then((answer) => ({
          by: "fleet",
          ...answer,
        }));
      const byPerson = (i: number) =>
        call<Record<string, unknown>>("POST", personal, {
          token: tenant.apiKey,
          body: { cron: `${i} * * * *`, message: `person ${i}` },
        }).then((answer) => ({ by: "person", ...answer }));
      const answers = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          peopleFirst ? (i < 20 ? byPerson(i) : byFleet(i)) : i % 2 === 0 ? byFleet(i) : byPerson(i),
        ),
      );
      const made = answers.filter((answer) => answer.status === 201);
      expect(
        made,
        answers.map((answer) => `${answer.status} ${answer.text.slice(0, 120)}`).join("\n"),
      ).toHaveLength(32);
      const fleetMade = made.filter((answer) => answer.by === "fleet").length;
      expect(fleetMade).toBeLessThanOrEqual(16);

      // A person's create meets only the 32; the fleet's meets its 16 first, and the 32 below that.
      for (const refused of answers.filter((answer) => answer.status !== 201)) {
        expect(refused.status, refused.text).toBe(409);
        const code =
          refused.by === "fleet" && fleetMade === 16
            ? { error_code: "UZ-SCHED-009", current_state: "at_capacity" }
            : { error_code: "UZ-SCHED-003", current_state: "limit_reached" };
        expect(refused.body, refused.by).toMatchObject(code);
      }
      const listed = await call<OutputOf<typeof listSchedules>>("GET", personal, { token: tenant.apiKey });
      expect(listed.body.items).toHaveLength(32);
      expect(listed.body.items.filter((item) => item.source === "fleet")).toHaveLength(fleetMade);
    }
  });

  it("lets the fleet change, run and delete only schedules it created, and refuses a stale holder", async () => {
    const tenant = await seedTenant();
    const { fleetId, runner, lease } = await leasedFleet(tenant);
    const mine = await create(runner.token, lease, { cron: "0 8 * * *", message: "mine" });
    const person = await call<OutputOf<typeof createSchedule>>(
      "POST",
      `/v1/workspaces/${tenant.workspaceId}/fleets/${fleetId}/schedules`,
      { token: tenant.apiKey, body: { cron: "0 8 * * *", message: "theirs" } },
    );
    const at = (id: unknown) => `/v1/runners/me/leases/${lease.lease_id}/schedules/${id}`;
    const token = lease.fencing_token;
    const refused = await call("PATCH", at(person.body.schedule_id), {
      token: runner.token,
      body: { fencing_token: token, status: "paused" },
    });
    expect(refused.status).toBe(403);
    expect(refused.body.error_code).toBe("UZ-SCHED-010");
    const notDeleted = await call("DELETE", `${at(person.body.schedule_id)}?fencing_token=${token}`, {
      token: runner.token,
    });
    expect(notDeleted.body.error_code).toBe("UZ-SCHED-010");

    const paused = await call("PATCH", at(mine.body.schedule_id), {
      token: runner.token,
      body: { fencing_token: token, status: "paused", message: `now with ${SECRET}` },
    });
    expect(paused.status, paused.text).toBe(200);
    expect(paused.body).toMatchObject({ status: "paused", message: "now with [secret:GITHUB_TOKEN]" });
    const run = await call<OutputOf<typeof runFleetSchedule>>("POST", `${at(mine.body.schedule_id)}/runs`, {
      token: runner.token,
      body: { fencing_token: token },
    });
    expect(run.status).toBe(202);
    const event = await call(
      "GET",
      `/v1/workspaces/${tenant.workspaceId}/fleets/${fleetId}/events/${run.body.event_id}`,
      { token: tenant.apiKey },
    );
    expect(event.body).toMatchObject({ event_type: "cron", actor: `cron:${mine.body.schedule_id}` });
    expect(
      (await call("DELETE", `${at(mine.body.schedule_id)}?fencing_token=${token}`, { token: runner.token }))
        .status,
    ).toBe(204);

    const stale = await create(
      runner.token,
      { ...lease, fencing_token: token - 1 },
      { cron: "0 8 * * *", message: "x" },
    );
    expect(stale.status).toBe(409);
    expect(stale.body.error_code).toBe("UZ-RUN-005");
  });
});

// A scheduler on a connection of its own can only be cut off on PostgreSQL: the embedded one is in-process.
describe.runIf(databaseKind === "postgres")(
  "a schedule the fleet creates while the scheduler is away",
  () => {
    it("answers 201 with sync failed, the schedule saved", { timeout: 30_000 }, async () => {
      const databaseUrl = (await testApi()).config.databaseUrl;
      const { proxy, url: schedulerUrl } = await proxyTo(databaseUrl);
      proxy.interrupt();
      const cut = await startApi({
        DATABASE_URL: databaseUrl,
        FLEET_SCHEDULER_URL: schedulerUrl,
        FLEET_SCHEDULER_DEADLINE_MS: "1000",
        FLEET_RECONCILE_INTERVAL_MS: "600000",
      });
      try {
        const tenant = await seedTenant();
        const { fleetId, runner, lease } = await leasedFleet(tenant);
        const created = await callAt<Record<string, unknown>>(
          cut.baseUrl,
          "POST",
          `/v1/runners/me/leases/${lease.lease_id}/schedules`,
          {
            token: runner.token,
            body: { fencing_token: lease.fencing_token, cron: "0 6 * * *", message: "cut off" },
          },
        );
        expect(created.status, created.text).toBe(201);
        expect(created.body).toMatchObject({ fleet_id: fleetId, source: "fleet", sync: "failed" });
        expect(created.body.last_error).toMatch(/scheduler/);
        // Saved all the same (another instance's reconciler may have registered it since).
        const read = await call(
          "GET",
          `/v1/workspaces/${tenant.workspaceId}/fleets/${fleetId}/schedules/${created.body.schedule_id}`,
          { token: tenant.apiKey },
        );
        expect(read.status, read.text).toBe(200);
        expect(read.body).toMatchObject({ source: "fleet", message: "cut off" });
      } finally {
        await cut.app.close();
        await cut.database.close();
        await proxy.stop();
      }
    });
  },
);
