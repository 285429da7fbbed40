import { and, auditEvents, eq, leases } from "@fleet/db";
import { beforeAll, describe, expect, it } from "vitest";
import { type LeasedFleet, leasedFleet } from "./approval-fixtures.ts";
import { call, seedTenant, type Tenant, testApi } from "./harness.ts";
import { enrollRunner, fullReport } from "./runner-fixtures.ts";

// The worker's API (and on PGlite its database) starts in a hook, not inside the first test's time.
beforeAll(async () => {
  await testApi();
}, 60_000);

const DEPLOY = "deploy_canary_7f3a9c2e41";
const OTHER = "other_canary_b81d0c55e9";

async function storeSecret(owner: Tenant, name: string, data: Record<string, unknown>) {
  const stored = await call("POST", `/v1/workspaces/${owner.workspaceId}/secrets`, {
    token: owner.apiKey,
    body: { name, data },
  });
  expect(stored.status, stored.text).toBe(201);
}

function fetchCredentials(leased: LeasedFleet, extra: { id?: string; token?: string; body?: unknown } = {}) {
  return call<Record<string, unknown>>(
    "POST",
    `/v1/runners/me/leases/${extra.id ?? leased.lease.lease_id}/credentials`,
    {
      token: extra.token ?? leased.runner.token,
      body: "body" in extra ? extra.body : { fencing_token: leased.lease.fencing_token },
    },
  );
}

async function auditRows(leaseId: string) {
  const api = await testApi();
  return api.database.db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.action, "lease.credentials"), eq(auditEvents.target, `lease:${leaseId}`)));
}

describe("lease credentials", () => {
  it("answers the declared secrets only, a missing one as missing, never cached, with one audit row of names", async () => {
    const owner = await seedTenant();
    await storeSecret(owner, "DEPLOY_TOKEN", { token: DEPLOY, user: "deployer" });
    await storeSecret(owner, "UNDECLARED", { token: OTHER });
    await storeSecret(owner, "NOT_HELD", { token: "deleted_before_the_run" });
    const leased = await leasedFleet(owner, { credentials: ["DEPLOY_TOKEN", "NOT_HELD"] });
    // Installing needs every declared secret; one deleted afterwards is answered as missing.
    const deleted = await call("DELETE", `/v1/workspaces/${owner.workspaceId}/secrets/NOT_HELD`, {
      token: owner.apiKey,
    });
    expect(deleted.status, deleted.text).toBe(204);
    expect(leased.lease.fleet.credentials).toEqual(["DEPLOY_TOKEN", "NOT_HELD"]);
    const answer = await fetchCredentials(leased);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.headers.get("cache-control")).toBe("no-store");
    expect(answer.body).toEqual({
      lease_id: leased.lease.lease_id,
      credentials: [
        { name: "DEPLOY_TOKEN", data: { token: DEPLOY, user: "deployer" } },
        { name: "NOT_HELD", missing: true },
      ],
      expires_at: expect.any(Number),
    });
    expect(answer.text).not.toContain(OTHER);
    expect(answer.text).not.toContain("UNDECLARED");

    const rows = await auditRows(leased.lease.lease_id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      actor: `runner:${leased.runner.runnerId}`,
      tenantId: owner.tenantId,
      workspaceId: owner.workspaceId,
      requestId: answer.headers.get("x-request-id"),
      details: {
        runner_id: leased.runner.runnerId,
        fleet_id: leased.fleetId,
        secret_names: ["DEPLOY_TOKEN"],
        missing_names: ["NOT_HELD"],
      },
    });
    expect(JSON.stringify(rows)).not.toContain(DEPLOY);
    // The owner reads the delivery in the audit log, with names and never a value.
    const log = await call<{ items: { action: string; target: string }[] }>(
      "GET",
      `/v1/workspaces/${owner.workspaceId}/audit`,
      { token: owner.apiKey },
    );
    expect(log.status, log.text).toBe(200);
    expect(
      log.body.items.filter((row) => row.action === "lease.credentials").map((row) => row.target),
    ).toEqual([`lease:${leased.lease.lease_id}`]);
    expect(log.text).not.toContain(DEPLOY);
  });

  it("answers an empty list for a fleet that declares nothing, still audited", async () => {
    const leased = await leasedFleet(await seedTenant());
    const answer = await fetchCredentials(leased);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.credentials).toEqual([]);
    expect(await auditRows(leased.lease.lease_id)).toHaveLength(1);
  });

  it("refuses a stale holder and an ended lease (409 UZ-RUN-005), audits nothing", async () => {
    const owner = await seedTenant();
    await storeSecret(owner, "DEPLOY_TOKEN", { token: DEPLOY });
    const leased = await leasedFleet(owner, { credentials: ["DEPLOY_TOKEN"] });
    const stale = await fetchCredentials(leased, { body: { fencing_token: leased.lease.fencing_token - 1 } });
    expect(stale.status, stale.text).toBe(409);
    expect(stale.body).toMatchObject({ error_code: "UZ-RUN-005" });
    expect(stale.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    expect(stale.text).not.toContain(DEPLOY);
    const released = await call("POST", `/v1/runners/me/leases/${leased.lease.lease_id}/release`, {
      token: leased.runner.token,
      body: { fencing_token: leased.lease.fencing_token },
    });
    expect(released.status, released.text).toBe(200);
    const ended = await fetchCredentials(leased);
    expect(ended.status, ended.text).toBe(409);
    expect(ended.body).toMatchObject({ error_code: "UZ-RUN-005" });
    expect(ended.text).not.toContain(DEPLOY);
    expect(await auditRows(leased.lease.lease_id)).toHaveLength(0);
  });

  it("refuses a lease past its expiry that no acquire has swept yet (409 UZ-RUN-005, expired)", async () => {
    const owner = await seedTenant();
    await storeSecret(owner, "DEPLOY_TOKEN", { token: DEPLOY });
    const leased = await leasedFleet(owner, { credentials: ["DEPLOY_TOKEN"] });
    const api = await testApi();
    await api.database.db
      .update(leases)
      .set({ expiresAt: Date.now() - 1_000 })
      .where(eq(leases.id, leased.lease.lease_id));
    const lapsed = await fetchCredentials(leased);
    expect(lapsed.status, lapsed.text).toBe(409);
    expect(lapsed.body).toMatchObject({ error_code: "UZ-RUN-005", current_state: "expired" });
    expect(lapsed.text).not.toContain(DEPLOY);
    expect(await auditRows(leased.lease.lease_id)).toHaveLength(0);
  });

  it("answers 404 UZ-RUN-001 to a runner that does not hold the lease (another tenant's run)", async () => {
    const owner = await seedTenant();
    await storeSecret(owner, "DEPLOY_TOKEN", { token: DEPLOY });
    const leased = await leasedFleet(owner, { credentials: ["DEPLOY_TOKEN"] });
    const other = await leasedFleet(await seedTenant("other"));
    const foreign = await fetchCredentials(leased, {
      token: other.runner.token,
      body: { fencing_token: leased.lease.fencing_token },
    });
    expect(foreign.status, foreign.text).toBe(404);
    expect(foreign.body).toMatchObject({ error_code: "UZ-RUN-001" });
    expect(foreign.text).not.toContain(DEPLOY);
    const unknown = await fetchCredentials(leased, { id: "0190a000-0000-7000-8000-000000000000" });
    expect(unknown.status, unknown.text).toBe(404);
    expect(await auditRows(leased.lease.lease_id)).toHaveLength(0);
  });

  it("refuses a runner whose host no longer satisfies its policy (409 UZ-EXEC-017)", async () => {
    const owner = await seedTenant();
    await storeSecret(owner, "DEPLOY_TOKEN", { token: DEPLOY });
    const leased = await leasedFleet(owner, { credentials: ["DEPLOY_TOKEN"] });
    const beat = await call("POST", "/v1/runners/me/heartbeats", {
      token: leased.runner.token,
      body: { capability_report: { ...fullReport, landlock: false } },
    });
    expect(beat.status, beat.text).toBe(200);
    const refused = await fetchCredentials(leased);
    expect(refused.status, refused.text).toBe(409);
    expect(refused.body).toMatchObject({ error_code: "UZ-EXEC-017", current_state: "degraded" });
    expect(refused.text).not.toContain(DEPLOY);
    expect(await auditRows(leased.lease.lease_id)).toHaveLength(0);
    // Its host satisfies the policy again: the values are delivered.
    await call("POST", "/v1/runners/me/heartbeats", {
      token: leased.runner.token,
      body: { capability_report: fullReport },
    });
    expect((await fetchCredentials(leased)).status).toBe(200);
  });

  it("reads an upper-case lease id as the same lease; hostile ids and bodies are 4xx problems", async () => {
    const owner = await seedTenant();
    await storeSecret(owner, "DEPLOY_TOKEN", { token: DEPLOY });
    const leased = await leasedFleet(owner, { credentials: ["DEPLOY_TOKEN"] });
    const upper = await fetchCredentials(leased, { id: leased.lease.lease_id.toUpperCase() });
    expect(upper.status, upper.text).toBe(200);
    expect(upper.body.lease_id).toBe(leased.lease.lease_id);
    for (const id of [
      "not-a-uuid",
      "%00",
      "0190a000-0000-4000-8000-000000000000",
      "x".repeat(5000),
      "%ED%A0%80",
    ]) {
      const refused = await fetchCredentials(leased, { id });
      expect(refused.status, `${id}: ${refused.text}`).toBeGreaterThanOrEqual(400);
      expect(refused.status, `${id}: ${refused.text}`).toBeLessThan(500);
      expect(refused.text).not.toContain(DEPLOY);
    }
    for (const body of [
      null,
      [],
      { fencing_token: "1" },
      { fencing_token: -1 },
      {},
      { fencing_token: 1.5 },
    ]) {
      const refused = await fetchCredentials(leased, { body });
      expect(refused.status, `${JSON.stringify(body)}: ${refused.text}`).toBe(400);
      expect(refused.body).toMatchObject({ error_code: "UZ-REQ-001" });
    }
    // Without a runner token: 401, and a tenant's key is not a runner's.
    const anonymous = await call("POST", `/v1/runners/me/leases/${leased.lease.lease_id}/credentials`, {
      body: { fencing_token: leased.lease.fencing_token },
    });
    expect(anonymous.status).toBe(401);
    const tenantKey = await fetchCredentials(leased, { token: owner.apiKey });
    expect([401, 403]).toContain(tenantKey.status);
    expect(tenantKey.text).not.toContain(DEPLOY);
    expect(await auditRows(leased.lease.lease_id)).toHaveLength(1);
  });

  it("refuses a runner that holds nothing yet (no heartbeat: degraded) before reading anything", async () => {
    const runner = await enrollRunner({ heartbeat: false });
    const refused = await call(
      "POST",
      "/v1/runners/me/leases/0190a000-0000-7000-8000-000000000000/credentials",
      {
        token: runner.token,
        body: { fencing_token: 1 },
      },
    );
    expect(refused.status, refused.text).toBe(404);
  });
});
