import type { OutputOf } from "@fleet/contracts";
import type { enrollRunner as enrollOperation } from "@fleet/contracts/runners/enroll-runner";
import type { getRunner } from "@fleet/contracts/runners/get-runner";
import type { getSelf } from "@fleet/contracts/runners/get-self";
import type { listRunnerEvents } from "@fleet/contracts/runners/list-runner-events";
import type { listRunners } from "@fleet/contracts/runners/list-runners";
import { runners, sql } from "@fleet/db";
import { describe, expect, it } from "vitest";
import { installFleet, messageFleet } from "./fleet-fixtures.ts";
import { call, operatorToken, seedTenant, testApi, useIsolatedApi } from "./harness.ts";
import { acquire, enrollRunner, fullReport, report } from "./runner-fixtures.ts";

type RunnerView = OutputOf<typeof getRunner>;

// Runners lease any tenant's waiting work: this file runs on a database of its own.
useIsolatedApi();

describe("runner enrolment and the operator plane", () => {
  it("enrols a runner, answering its token once with the policy as stored", async () => {
    const operator = await operatorToken(["runner:write"]);
    const enrolled = await call<Record<string, unknown>>("POST", "/v1/runners", {
      token: operator,
      body: {
        host_id: "build-01",
        assigned_policy: {
          sandbox_tier: "container_nested",
          worker_count: 500,
          registry_allowlist: ["ghcr.io"],
        },
        labels: ["gpu", "eu-west"],
      },
    });
    expect(enrolled.status).toBe(201);
    expect(enrolled.headers.get("cache-control")).toBe("no-store");
    expect(enrolled.body.runner_token).toMatch(/^agt_r/);
    expect(enrolled.body.assigned_policy).toEqual({
      sandbox_tier: "container_nested",
      network_policy: "allow_all",
      registry_allowlist: ["ghcr.io"],
      worker_count: 64,
    });
    const zero = await call<OutputOf<typeof enrollOperation>>("POST", "/v1/runners", {
      token: operator,
      body: { host_id: "b", assigned_policy: { sandbox_tier: "landlock_full", worker_count: 0 } },
    });
    expect(zero.body.assigned_policy.worker_count).toBe(1);

    const read = await call<RunnerView & Record<string, unknown>>(
      "GET",
      `/v1/fleets/runners/${enrolled.body.runner_id}`,
      { token: await operatorToken(["runner:read"]) },
    );
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ liveness: "registered", status: "active", degraded: true });
    expect(read.body.degraded_reason).toContain("no capability report");
    expect(read.text).not.toContain(String(enrolled.body.runner_token));
    expect(read.body).not.toHaveProperty("token_hash");
  });

  it("refuses a top-level sandbox_tier, a bad policy and dev_none outside dev mode", async () => {
    const operator = await operatorToken(["runner:write"]);
    const cases = [
      { host_id: "h", sandbox_tier: "landlock_full", assigned_policy: { sandbox_tier: "landlock_full" } },
      { host_id: "h", assigned_policy: { sandbox_tier: "chroot" } },
      { host_id: "h", assigned_policy: { sandbox_tier: "landlock_full", network_policy: "open" } },
      { host_id: "h", assigned_policy: { sandbox_tier: "landlock_full", extra: 1 } },
    ];
    for (const body of cases) {
      const refused = await call("POST", "/v1/runners", { token: operator, body });
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.error_code).toBe("UZ-REQ-001");
    }
    const dev = await call("POST", "/v1/runners", {
      token: operator,
      body: { host_id: "h", assigned_policy: { sandbox_tier: "dev_none" } },
    });
    expect(dev.status).toBe(400);
    expect(dev.body.error_code).toBe("UZ-RUN-016");
  });

  it("judges heartbeats against the policy: degraded names the missing mechanism and recovers by itself", async () => {
    const runner = await enrollRunner({ heartbeat: false });
    const partial = await call<Record<string, unknown>>("POST", "/v1/runners/me/heartbeats", {
      token: runner.token,
      body: { capability_report: { ...fullReport, seccomp: false } },
    });
    expect(partial.body).toMatchObject({ status: "active", degraded: true });
    expect(partial.body.degraded_reason).toContain("seccomp");
    const refused = await acquire(runner);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ error_code: "UZ-EXEC-017" });
    expect((refused.body as unknown as { detail: string }).detail).toContain("seccomp");

    const whole = await call("POST", "/v1/runners/me/heartbeats", {
      token: runner.token,
      body: { capability_report: fullReport },
    });
    expect(whole.body).toMatchObject({ degraded: false, degraded_reason: null });
    expect((await acquire(runner)).status).toBe(200);

    const unknownField = await call("POST", "/v1/runners/me/heartbeats", {
      token: runner.token,
      body: { capability_report: { ...fullReport, gpu: true } },
    });
    expect(unknownField.status).toBe(400);
  });

  it("re-assigns policy with the verdict in the same answer, and the host learns it at its next heartbeat", async () => {
    const runner = await enrollRunner();
    const operator = await operatorToken(["runner:write"]);
    const path = `/v1/fleets/runners/${runner.runnerId}`;
    const strict = await call<RunnerView>("PATCH", path, {
      token: operator,
      body: { assigned_policy: { sandbox_tier: "landlock_full", network_policy: "deny_all_egress" } },
    });
    expect(strict.status).toBe(200);
    expect(strict.body.degraded).toBe(false); // the full report includes egress enforcement
    const beat = await call<Record<string, unknown>>("POST", "/v1/runners/me/heartbeats", {
      token: runner.token,
      body: { capability_report: { ...fullReport, egress_enforcement: false } },
    });
    expect(beat.body).toMatchObject({
      degraded: true,
      assigned_policy: { network_policy: "deny_all_egress" },
    });
    const relaxed = await call<RunnerView>("PATCH", path, {
      token: operator,
      body: { assigned_policy: { sandbox_tier: "landlock_full" } },
    });
    expect(relaxed.body).toMatchObject({ degraded: false, degraded_reason: null });
  });

  it("a host enrolled without a policy reads degraded until one is assigned", async () => {
    const { seedRunnerToken } = await import("./harness.ts");
    const token = await seedRunnerToken();
    const beat = await call<Record<string, unknown>>("POST", "/v1/runners/me/heartbeats", {
      token,
      body: { capability_report: fullReport },
    });
    expect(beat.body).toMatchObject({ degraded: true, degraded_reason: "no assigned policy" });
    const self = await call<OutputOf<typeof getSelf>>("GET", "/v1/runners/me", { token });
    const assigned = await call<RunnerView>("PATCH", `/v1/fleets/runners/${self.body.runner_id}`, {
      token: await operatorToken(["runner:write"]),
      body: { assigned_policy: { sandbox_tier: "landlock_full" } },
    });
    expect(assigned.body.degraded).toBe(false);
  });

  it("reads online while the last heartbeat is within 90 s, offline after, and online again at the next", async () => {
    const runner = await enrollRunner();
    const reader = await operatorToken(["runner:read"]);
    const api = await testApi();
    const liveness = async (heardAgo: number) => {
      await api.database.db
        .update(runners)
        .set({ lastHeartbeatAt: Date.now() - heardAgo })
        .where(sql`${runners.id} = ${runner.runnerId}`);
      const one = await call<RunnerView>("GET", `/v1/fleets/runners/${runner.runnerId}`, { token: reader });
      const list = await call<OutputOf<typeof listRunners>>("GET", "/v1/fleets/runners?limit=100", {
        token: reader,
      });
      const listed = list.body.items.find((item) => item.runner_id === runner.runnerId);
      expect(listed?.liveness).toBe(one.body.liveness);
      return one.body.liveness;
    };
    expect(await liveness(0)).toBe("online");
    expect(await liveness(85_000)).toBe("online");
    expect(await liveness(95_000)).toBe("offline");
    expect(await liveness(24 * 60 * 60 * 1000)).toBe("offline");
    const beat = await call("POST", "/v1/runners/me/heartbeats", {
      token: runner.token,
      body: { capability_report: fullReport },
    });
    expect(beat.status).toBe(200);
    const back = await call<RunnerView>("GET", `/v1/fleets/runners/${runner.runnerId}`, { token: reader });
    expect(back.body.liveness).toBe("online");
  });

  it("cordons (no new leases), drains to drained, and revokes (token refused at once; then deletable)", async () => {
    const tenant = await seedTenant();
    const fleetId = await installFleet(tenant, "cordon-fleet");
    await messageFleet(tenant, fleetId);
    const runner = await enrollRunner();
    const writer = await operatorToken(["runner:write"]);
    const path = `/v1/fleets/runners/${runner.runnerId}`;

    const cordoned = await call<RunnerView>("PATCH", path, { token: writer, body: { status: "cordoned" } });
    expect(cordoned.body.status).toBe("cordoned");
    expect((await acquire(runner)).body.lease).toBeNull();

    await call("PATCH", path, { token: writer, body: { status: "active" } });
    const leased = await acquire(runner);
    expect(leased.body.lease).not.toBeNull();
    const draining = await call<RunnerView>("PATCH", path, { token: writer, body: { status: "draining" } });
    expect(draining.body).toMatchObject({ status: "draining", liveness: "busy", active_lease_count: 1 });
    const lease = leased.body.lease!;
    await report(runner, lease);
    const drained = await call<RunnerView>("GET", path, { token: writer });
    expect(drained.body).toMatchObject({ status: "drained", leases_acquired: 1, leases_succeeded: 1 });

    const early = await call("DELETE", path, { token: await operatorToken(["runner:admin"]) });
    expect(early.status).toBe(409);
    expect(early.body).toMatchObject({ error_code: "UZ-RUN-015", current_state: "draining" });
    const notAdmin = await call("PATCH", path, { token: writer, body: { status: "revoked" } });
    expect(notAdmin.status).toBe(403);
    const admin = await operatorToken(["runner:admin"]);
    const revoked = await call<RunnerView>("PATCH", path, { token: admin, body: { status: "revoked" } });
    expect(revoked.body.status).toBe("revoked");
    const refused = await call("GET", "/v1/runners/me", { token: runner.token });
    expect(refused.status).toBe(401);
    const again = await call("PATCH", path, { token: admin, body: { status: "active" } });
    expect(again.body).toMatchObject({ error_code: "UZ-RUN-017", current_state: "revoked" });

    const events = await call<OutputOf<typeof listRunnerEvents>>(
      "GET",
      `${path}/events?event_type=runner_cordoned,runner_draining,runner_revoked`,
      { token: admin },
    );
    expect(events.body.items.map((e) => e.event_type)).toEqual([
      "runner_revoked",
      "runner_draining",
      "runner_cordoned",
    ]);
    // A lease's entry names its fleet, read when listed: by name while it exists, null once deleted.
    const lookup = (type: string) =>
      call<OutputOf<typeof listRunnerEvents>>("GET", `${path}/events?event_type=${type}`, { token: admin });
    const leases = await lookup("lease_acquired");
    expect(leases.body.items).toHaveLength(1);
    expect(leases.body.items[0]).toMatchObject({ detail: { fleet_id: fleetId }, fleet_name: "cordon-fleet" });
    expect(events.body.items.every((e) => e.fleet_name === null)).toBe(true);
    const fleetPath = `/v1/workspaces/${tenant.workspaceId}/fleets/${fleetId}`;
    expect((await call("DELETE", fleetPath, { token: tenant.apiKey })).status).toBe(204);
    expect((await lookup("lease_acquired")).body.items[0]?.fleet_name).toBeNull();
    const badTag = await call("GET", `${path}/events?event_type=runner_revoked,runner_exploded`, {
      token: admin,
    });
    expect(badTag.status).toBe(400);
    expect(badTag.body.error_code).toBe("UZ-REQ-001");
    expect(badTag.body.detail).toContain("runner_exploded");

    expect((await call("DELETE", path, { token: admin })).status).toBe(204);
    const gone = await call("GET", path, { token: admin });
    expect(gone.status).toBe(404);
    expect(gone.body.error_code).toBe("UZ-RUN-014");
  });

  it("lists runners newest first by cursor, refusing page, page_size and sort", async () => {
    const reader = await operatorToken(["runner:read"]);
    const a = await enrollRunner({ heartbeat: false });
    const b = await enrollRunner({ heartbeat: false });
    const first = await call<OutputOf<typeof listRunners>>("GET", "/v1/fleets/runners?limit=1", {
      token: reader,
    });
    expect(first.body.items.map((r) => r.runner_id)).toEqual([b.runnerId]);
    const second = await call<OutputOf<typeof listRunners>>(
      "GET",
      `/v1/fleets/runners?limit=1&starting_after=${first.body.next_cursor}`,
      { token: reader },
    );
    expect(second.body.items.map((r) => r.runner_id)).toEqual([a.runnerId]);
    for (const bad of ["page=1", "page_size=10", "sort=created_at"]) {
      const refused = await call("GET", `/v1/fleets/runners?${bad}`, { token: reader });
      expect(refused.status, bad).toBe(400);
      expect(refused.body.error_code).toBe("UZ-REQ-001");
    }
    const leases = `/v1/fleets/runners/${a.runnerId}/leases`;
    expect((await call("GET", `${leases}?limit=101`, { token: reader })).status).toBe(400);
    expect((await call("GET", `${leases}?starting_after=nonsense`, { token: reader })).status).toBe(400);
    expect((await call("GET", leases, { token: reader })).body).toEqual({ items: [], next_cursor: null });
  });

  it("serves the console's operator pages from the operator cookie, never from the session cookie", async () => {
    const operator = await operatorToken(["runner:read"]);
    const tenant = await seedTenant();
    const { sessionFor } = await import("./harness.ts");
    const session = await sessionFor(tenant);
    const viaOperator = await call("GET", "/trpc/runners.list", {
      headers: { cookie: `fleet_operator=${operator}` },
    });
    expect(viaOperator.status).toBe(200);
    const viaSession = await call("GET", "/trpc/runners.list", {
      headers: { cookie: `fleet_session=${session}` },
    });
    expect(viaSession.status).toBe(401);
    // The operator cookie is no tenant credential.
    const tenantRoute = await call("GET", "/trpc/users.getMe", {
      headers: { cookie: `fleet_operator=${operator}` },
    });
    expect(tenantRoute.status).toBe(401);
  });
});
