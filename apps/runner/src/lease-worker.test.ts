import type { Lease } from "@fleet/contracts";
import { describe, expect, it } from "vitest";
import { fakeGate, fakeLease, fakeLeaseApi } from "../test/lease.ts";
import type { ReportFields } from "./api.ts";
import { sleep } from "./backoff.ts";
import type { Executor } from "./executor.ts";
import { createEchoExecutor } from "./executors/echo.ts";
import { ApiError } from "./http.ts";
import { type LeaseApi, runLease, ttlEstimate } from "./lease-worker.ts";
import { silentLogger } from "./log.ts";

const superseded = () =>
  new ApiError(409, "UZ-RUN-005", { detail: "superseded", current_state: "superseded" }, undefined);

function fakeApi(overrides: Partial<LeaseApi> = {}) {
  const calls = { renew: [] as number[], report: [] as ReportFields[], activity: 0, release: 0 };
  const api = fakeLeaseApi({
    async release() {
      calls.release++;
      return { released: true };
    },
    async renew(lease) {
      calls.renew.push(Date.now());
      return { lease_id: lease.lease_id, expires_at: Date.now() + 600 };
    },
    async report(_lease, fields) {
      calls.report.push(fields);
      return {};
    },
    async activity() {
      calls.activity++;
      return { ok: true };
    },
    ...overrides,
  });
  return { api, calls };
}

function slowExecutor(ms: number, seen: { signal?: AbortSignal } = {}): Executor {
  return {
    name: "slow",
    async run(_lease: Lease, tools) {
      seen.signal = tools.signal;
      await sleep(ms, tools.signal);
      return { outcome: "processed", response_text: "done" };
    },
  };
}

const never = new AbortController().signal;

describe("runLease", () => {
  it("stops a run the service says is over its budget, and reports it as budget_exceeded", async () => {
    let renewals = 0;
    const { api, calls } = fakeApi({
      renew: async () => {
        renewals++;
        throw new ApiError(409, "UZ-BUDGET-001", { detail: "over", current_state: "over_budget" }, undefined);
      },
    });
    const seen: { signal?: AbortSignal } = {};
    const started = Date.now();
    const end = await runLease(
      fakeLease({ expires_at: started + 600 }),
      { api, executor: slowExecutor(5_000, seen), log: silentLogger },
      never,
    );
    expect(end).toBe("reported");
    expect(seen.signal?.aborted).toBe(true);
    expect(Date.now() - started).toBeLessThan(4_000);
    expect(renewals).toBe(1); // renewing stopped with the run
    expect(calls.report).toEqual([
      expect.objectContaining({ outcome: "fleet_error", failure_label: "budget_exceeded" }),
    ]);
  });

  it("renews about every third of the TTL, then reports the answer with its wall time", async () => {
    const { api, calls } = fakeApi();
    const started = Date.now();
    const end = await runLease(
      fakeLease({ expires_at: started + 600 }),
      { api, executor: slowExecutor(750), log: silentLogger },
      never,
    );
    expect(end).toBe("reported");
    expect(calls.renew.length).toBeGreaterThanOrEqual(2);
    expect(calls.renew[0]! - started).toBeGreaterThanOrEqual(150);
    expect(calls.renew[0]! - started).toBeLessThan(400);
    expect(calls.report).toHaveLength(1);
    expect(calls.report[0]).toMatchObject({ outcome: "processed", response_text: "done" });
    expect(calls.report[0]!.wall_ms).toBeGreaterThanOrEqual(700);
  });

  it("drops a superseded lease: the executor is told to stop and nothing is reported", async () => {
    const { api, calls } = fakeApi({
      renew: async () => {
        throw superseded();
      },
    });
    const seen: { signal?: AbortSignal } = {};
    const end = await runLease(
      fakeLease({ expires_at: Date.now() + 300 }),
      { api, executor: slowExecutor(10_000, seen), log: silentLogger },
      never,
    );
    expect(end).toBe("lost");
    expect(seen.signal?.aborted).toBe(true);
    expect(calls.report).toHaveLength(0);
  });

  it("drops the lease when a fenced write is refused as superseded", async () => {
    const { api, calls } = fakeApi({
      activity: async () => {
        throw superseded();
      },
    });
    const executor: Executor = {
      name: "publishing",
      async run(_lease, tools) {
        await tools.publish({ fleet_response_chunk: { text: "partial" } });
        await tools.writeMemory("k", { content: "c" });
        return { outcome: "processed", response_text: "never reported" };
      },
    };
    expect(await runLease(fakeLease(), { api, executor, log: silentLogger }, never)).toBe("lost");
    expect(calls.report).toHaveLength(0);
  });

  it("reports an executor's failure as fleet_error", async () => {
    const { api, calls } = fakeApi();
    const executor: Executor = {
      name: "failing",
      run: async () => {
        throw new Error("the model refused");
      },
    };
    expect(await runLease(fakeLease(), { api, executor, log: silentLogger }, never)).toBe("reported");
    expect(calls.report[0]).toMatchObject({
      outcome: "fleet_error",
      failure_label: "executor_error",
      failure_detail: "the model refused",
    });
  });

  it("gives a lease up unreported, released to the service, when told to (shutdown past its grace)", async () => {
    const { api, calls } = fakeApi();
    const giveUp = new AbortController();
    setTimeout(() => giveUp.abort(), 100);
    const end = await runLease(
      fakeLease(),
      { api, executor: slowExecutor(10_000), log: silentLogger },
      giveUp.signal,
    );
    expect(end).toBe("given_up");
    expect(calls.report).toHaveLength(0);
    expect(calls.release).toBe(1);
  });

  it("replaces an answer the service refuses to store with a fleet_error report", async () => {
    const { api, calls } = fakeApi({
      async report(_lease, fields) {
        calls.report.push(fields);
        if (fields.outcome === "processed") {
          throw new ApiError(400, "UZ-REQ-001", { detail: "response_text is too long" }, undefined);
        }
        return {};
      },
    });
    expect(await runLease(fakeLease(), { api, executor: slowExecutor(0), log: silentLogger }, never)).toBe(
      "reported",
    );
    expect(calls.report.map((fields) => fields.outcome)).toEqual(["processed", "fleet_error"]);
    expect(calls.report[1]).toMatchObject({ failure_label: "report_refused" });
  });
});

describe("runLease with an approval gate", () => {
  /** A long-poll: sleeps up to `ms` on the request's signal, and fails as fetch does when it aborts. */
  async function longPoll(ms: number, signal?: AbortSignal): Promise<void> {
    await sleep(ms, signal);
    if (signal?.aborted) throw new DOMException("The operation was aborted.", "AbortError");
  }

  it("keeps the lease renewed while the executor waits on a gate, then reports the answer", async () => {
    const opened: Array<{ fencing: number; action: string }> = [];
    let waits = 0;
    const { api, calls } = fakeApi({
      openGate: async (lease, gate) => {
        opened.push({ fencing: lease.fencing_token, action: gate.proposed_action });
        return fakeGate({ action_id: gate.action_id });
      },
      waitGate: async (_lease, gateId, _waitMs, signal) => {
        await longPoll(250, signal);
        return ++waits < 4
          ? fakeGate({ gate_id: gateId })
          : fakeGate({
              status: "approved",
              outcome: "approved",
              resolved_by: "user:u1",
              approved_action: "ship",
            });
      },
    });
    const end = await runLease(
      fakeLease({ expires_at: Date.now() + 300, message: "approve: ship" }),
      { api, executor: createEchoExecutor(), log: silentLogger },
      never,
    );
    expect(end).toBe("reported");
    expect(opened).toEqual([{ fencing: 7, action: "ship" }]);
    expect(waits).toBe(4);
    // About one renew every 100 ms over the second the gate stayed pending.
    expect(calls.renew.length).toBeGreaterThanOrEqual(6);
    expect(calls.report[0]).toMatchObject({
      outcome: "processed",
      response_text: "Echo: approve: ship\nApproved by user:u1: ship",
    });
  });

  it("ends a gate wait at once when the lease is lost, and reports nothing", async () => {
    let waitSignal: AbortSignal | undefined;
    const { api, calls } = fakeApi({
      renew: async () => {
        throw superseded();
      },
      waitGate: async (_lease, gateId, _waitMs, signal) => {
        waitSignal = signal;
        await longPoll(10_000, signal);
        return fakeGate({ gate_id: gateId });
      },
    });
    const started = Date.now();
    const end = await runLease(
      fakeLease({ expires_at: Date.now() + 300, message: "approve: ship" }),
      { api, executor: createEchoExecutor(), log: silentLogger },
      never,
    );
    expect(end).toBe("lost");
    expect(waitSignal?.aborted).toBe(true);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(calls.report).toHaveLength(0);
  });

  it("reports a denied gate as fleet_error with its failure label", async () => {
    const { api, calls } = fakeApi({
      waitGate: async (_lease, gateId) =>
        fakeGate({
          gate_id: gateId,
          status: "denied",
          outcome: "denied",
          resolved_by: "api_key:k1",
          failure_label: "approval_denied",
        }),
    });
    expect(
      await runLease(
        fakeLease({ message: "approve: ship" }),
        { api, executor: createEchoExecutor(), log: silentLogger },
        never,
      ),
    ).toBe("reported");
    expect(calls.report[0]).toMatchObject({
      outcome: "fleet_error",
      failure_label: "approval_denied",
      failure_detail: 'The approval of "ship" was denied by api_key:k1.',
    });
  });
});

describe("ttlEstimate", () => {
  it("reads the TTL off the lease, and assumes the service default when the clocks disagree", () => {
    const now = 1_000_000;
    expect(ttlEstimate(fakeLease({ expires_at: now + 1_500 }), now)).toBe(1_500);
    expect(ttlEstimate(fakeLease({ expires_at: now - 5_000 }), now)).toBe(30_000);
    expect(ttlEstimate(fakeLease({ expires_at: now + 90_000 }), now)).toBe(30_000);
  });
});
