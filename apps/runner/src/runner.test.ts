import type { Lease } from "@fleet/contracts";
import { describe, expect, it } from "vitest";
import { fakeLease, fakeLeaseApi } from "../test/lease.ts";
import type { HeartbeatAnswer, ReportFields } from "./api.ts";
import { sleep } from "./backoff.ts";
import type { Executor } from "./executor.ts";
import { ApiError } from "./http.ts";
import { silentLogger } from "./log.ts";
import { type LoopApi, Runner } from "./runner.ts";

const noCapabilities = {
  landlock: false,
  seccomp: false,
  cgroup_controllers: [],
  bubblewrap: false,
  egress_enforcement: false,
};

/** A service in memory: the heartbeat answers `state`, acquire hands out `queue` one lease at a time. */
function fakeService(state: Partial<HeartbeatAnswer> = {}) {
  const service = {
    state: {
      status: "active",
      degraded: false,
      degraded_reason: null,
      assigned_policy: {
        sandbox_tier: "dev_none",
        network_policy: "allow_all",
        registry_allowlist: [],
        worker_count: 1,
      },
      ...state,
    } as HeartbeatAnswer,
    unauthorized: false,
    queue: [] as Lease[],
    acquires: 0,
    heartbeats: 0,
    reports: [] as ReportFields[],
  };
  const refusal = () =>
    new ApiError(401, "UZ-AUTH-002", { detail: "The runner token does not verify." }, undefined);
  const api: LoopApi = {
    async heartbeat() {
      service.heartbeats++;
      if (service.unauthorized) throw refusal();
      return structuredClone(service.state);
    },
    async acquire(_waitMs, signal) {
      service.acquires++;
      if (service.unauthorized) throw refusal();
      const lease = service.queue.shift();
      if (lease) return { lease, retry_after_ms: 0 };
      await sleep(50, signal);
      return { lease: null, retry_after_ms: 0 };
    },
    ...fakeLeaseApi({
      async report(_lease, fields) {
        service.reports.push(fields);
        return {};
      },
    }),
  };
  return { service, api };
}

function waitingExecutor(ms: number, running: { now: number; most: number }): Executor {
  return {
    name: "waiting",
    async run() {
      running.now++;
      running.most = Math.max(running.most, running.now);
      await sleep(ms);
      running.now--;
      return { outcome: "processed", response_text: "ok" };
    },
  };
}

function runnerFor(api: LoopApi, executor: Executor, shutdownGraceMs = 5_000) {
  return new Runner({
    api,
    executor,
    log: silentLogger,
    probe: async () => noCapabilities,
    waitMs: 0,
    heartbeatMs: 100,
    shutdownGraceMs,
  });
}

const leaseNumber = (n: number) =>
  fakeLease({
    lease_id: `0190a000-0000-7000-8000-00000000000${n}`,
    event_id: `0190a000-0000-7000-9000-00000000000${n}`,
  });

describe("the runner loop", () => {
  it("works up to worker_count leases at once and reports each", async () => {
    const { service, api } = fakeService();
    service.state.assigned_policy!.worker_count = 2;
    service.queue.push(leaseNumber(1), leaseNumber(2), leaseNumber(3));
    const running = { now: 0, most: 0 };
    const runner = runnerFor(api, waitingExecutor(200, running));
    const done = runner.run();
    while (service.reports.length < 3) await sleep(20);
    runner.shutdown();
    expect(await done).toBe("shutdown");
    expect(running.most).toBe(2);
  });

  it("does not lease while cordoned or degraded, and resumes when a heartbeat says active", async () => {
    const { service, api } = fakeService({ status: "cordoned" });
    service.queue.push(leaseNumber(1));
    const runner = runnerFor(api, waitingExecutor(0, { now: 0, most: 0 }));
    const done = runner.run();
    await sleep(250);
    expect(service.acquires).toBe(0);
    service.state = {
      ...service.state,
      status: "active",
      degraded: true,
      degraded_reason: "missing landlock",
    };
    await sleep(250);
    expect(service.acquires).toBe(0);
    service.state = { ...service.state, degraded: false, degraded_reason: null };
    while (service.reports.length < 1) await sleep(20);
    runner.shutdown();
    await done;
  });

  it("stops by itself when its token is revoked", async () => {
    const { service, api } = fakeService();
    const runner = runnerFor(api, waitingExecutor(0, { now: 0, most: 0 }));
    const done = runner.run();
    await sleep(150);
    service.unauthorized = true;
    expect(await done).toBe("revoked");
  });

  it("stops when the heartbeat answers status revoked", async () => {
    const { api } = fakeService({ status: "revoked" });
    expect(await runnerFor(api, waitingExecutor(0, { now: 0, most: 0 })).run()).toBe("revoked");
  });

  it("on shutdown finishes a held lease within the grace period, and gives it up past it", async () => {
    const finishing = fakeService();
    finishing.service.queue.push(leaseNumber(1));
    const patient = runnerFor(finishing.api, waitingExecutor(300, { now: 0, most: 0 }));
    const first = patient.run();
    while (patient.leasesHeld === 0) await sleep(10);
    patient.shutdown();
    await first;
    expect(finishing.service.reports).toHaveLength(1);

    const abandoning = fakeService();
    abandoning.service.queue.push(leaseNumber(2));
    const hurried = runnerFor(abandoning.api, waitingExecutor(5_000, { now: 0, most: 0 }), 100);
    const second = hurried.run();
    while (hurried.leasesHeld === 0) await sleep(10);
    const stoppedAt = Date.now();
    hurried.shutdown();
    await second;
    expect(Date.now() - stoppedAt).toBeLessThan(1_000);
    expect(abandoning.service.reports).toHaveLength(0);
  });
});
