import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import { eq, leases } from "@fleet/db";
import { freePort } from "@fleet/testing/free-port";
import { describe, expect, it } from "vitest";
import { type LeasedFleet, leasedFleet, openGate, type RunnerGate } from "./approval-fixtures.ts";
import { callAt, databaseKind, seedTenant, type TestApi, testApi, useIsolatedApi } from "./harness.ts";
import { enrollRunner, type LeaseAnswer } from "./runner-fixtures.ts";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A runner waiting for work, and one holding a lease waiting on a gate's answer: the long polls a drain ends. */
async function longPolls(baseUrl: string) {
  const owner = await seedTenant();
  const leased = await leasedFleet(owner);
  const opened = await openGate(leased);
  expect(opened.status, opened.text).toBe(201);
  const idle = await enrollRunner({ labels: ["nothing-to-lease-here"] });
  const forWork = callAt<LeaseAnswer>(baseUrl, "POST", "/v1/runners/me/leases", {
    token: idle.token,
    body: { wait_ms: 30_000 },
  });
  const onGate = callAt<RunnerGate>(
    baseUrl,
    "GET",
    `/v1/runners/me/leases/${leased.lease.lease_id}/gates/${opened.body.gate_id}?wait_ms=30000`,
    { token: leased.runner.token },
  );
  // Past their first look: both requests are parked on the instance's signals.
  await sleep(300);
  return { owner, leased, gateId: opened.body.gate_id, forWork, onGate };
}

/** The lease a runner waiting on a gate holds is still its own after the instance it waited on stopped. */
async function leaseKept(api: TestApi, leased: LeasedFleet, gateId: string) {
  const [row] = await api.database.db.select().from(leases).where(eq(leases.id, leased.lease.lease_id));
  expect(row?.status).toBe("running");
  // It asks again, on an instance that is up, and reads the gate as it stands.
  const again = await callAt<RunnerGate>(
    api.baseUrl,
    "GET",
    `/v1/runners/me/leases/${leased.lease.lease_id}/gates/${gateId}`,
    { token: leased.runner.token },
  );
  expect(again.status, again.text).toBe(200);
  expect(again.body.status).toBe("pending");
}

describe("an instance shutting down (in process)", () => {
  // Runners lease any tenant's waiting work: the drained instance and its runners have a database alone.
  useIsolatedApi();

  it("says not ready, answers its long polls at once, keeps the leases of runners waiting on gates, and stops", async () => {
    const api = await testApi();
    const { leased, gateId, forWork, onGate } = await longPolls(api.baseUrl);
    // The delay keeps the listener open while a load balancer would notice the 503 below.
    const stopped = api.app.shutdown({ delayMs: 8_000, graceMs: 10_000 });

    const ready = await callAt(api.baseUrl, "GET", "/readyz");
    expect(ready.status).toBe(503);
    expect(ready.body).toMatchObject({
      error_code: "UZ-INTERNAL-002",
      detail: "The instance is shutting down.",
    });
    expect(ready.headers.get("connection")).toBe("close");
    expect((await callAt(api.baseUrl, "GET", "/healthz")).status).toBe(200);

    // Both long polls were answered by the drain, not by their 30 s waits (the test's own limit is 30 s).
    const work = await forWork;
    expect(work.status, work.text).toBe(200);
    expect(work.body).toEqual({ lease: null, retry_after_ms: 0 });
    const gate = await onGate;
    expect(gate.status, gate.text).toBe(200);
    expect(gate.body).toMatchObject({ gate_id: gateId, status: "pending" });

    // A poll arriving while the instance drains is answered at once, and told to wait a little.
    const late = await pollAgain(api.baseUrl, leased);
    expect(late.body).toEqual({ lease: null, retry_after_ms: 1_000 });

    await stopped;
    await expect(callAt(api.baseUrl, "GET", "/healthz")).rejects.toThrow();
    const [row] = await api.database.db.select().from(leases).where(eq(leases.id, leased.lease.lease_id));
    expect(row?.status).toBe("running");
  });
});

/** One more acquire by the gate-waiting runner (it holds a lease; `worker_count` lets it ask for more). */
function pollAgain(baseUrl: string, leased: LeasedFleet) {
  return callAt<LeaseAnswer>(baseUrl, "POST", "/v1/runners/me/leases", {
    token: leased.runner.token,
    body: { wait_ms: 30_000 },
  });
}

/** Runs `pnpm start:api`'s script (the bundled API) on `port`, collecting its stderr. */
function startProcess(env: NodeJS.ProcessEnv) {
  const server: ChildProcess = spawn(process.execPath, ["scripts/start.mjs"], {
    cwd: join(import.meta.dirname, ".."),
    env: { ...process.env, LOG_LEVEL: "warn", ...env },
    stdio: ["ignore", "ignore", "pipe"],
  });
  const stderr: string[] = [];
  server.stderr!.on("data", (chunk: Buffer) => stderr.push(chunk.toString()));
  const exited = new Promise<number | null>((resolve) => server.once("exit", resolve));
  return { server, stderr, exited };
}

// A second process on the same database: PGlite is one process's.
describe.runIf(databaseKind === "postgres")("an API process sent SIGTERM", () => {
  useIsolatedApi();

  it("drains: readiness 503, its long polls answered, leases kept, then it exits 0", {
    timeout: 90_000,
  }, async () => {
    const api = await testApi();
    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    const { server, stderr, exited } = startProcess({
      DATABASE_URL: api.config.databaseUrl,
      PORT: String(port),
      FLEET_SHUTDOWN_DELAY_MS: "5000",
      FLEET_SHUTDOWN_GRACE_MS: "10000",
    });
    try {
      await expect
        .poll(async () => (await callAt(baseUrl, "GET", "/readyz").catch(() => null))?.status, {
          timeout: 60_000,
          interval: 100,
        })
        .toBe(200);
      const { leased, gateId, forWork, onGate } = await longPolls(baseUrl);

      server.kill("SIGTERM");
      await expect
        .poll(async () => (await callAt(baseUrl, "GET", "/readyz")).status, { timeout: 5_000, interval: 20 })
        .toBe(503);
      const work = await forWork;
      expect(work.body).toEqual({ lease: null, retry_after_ms: 0 });
      const gate = await onGate;
      expect(gate.body).toMatchObject({ gate_id: gateId, status: "pending" });

      expect(await exited, stderr.join("")).toBe(0);
      await leaseKept(api, leased, gateId);
    } finally {
      if (server.exitCode === null) server.kill("SIGKILL");
    }
  });
});
