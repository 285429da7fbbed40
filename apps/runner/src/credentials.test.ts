import type { Lease } from "@fleet/contracts";
import { describe, expect, it } from "vitest";
import { fakeLease, fakeLeaseApi } from "../test/lease.ts";
import { type LeaseCredentials, type ReportFields, RunnerApi } from "./api.ts";
import type { Executor, LeaseTools } from "./executor.ts";
import { ApiError, HttpClient } from "./http.ts";
import { runLease } from "./lease-worker.ts";
import { createLogger, silentLogger } from "./log.ts";

const CANARY = "canary_runner_value_31f0";
const never = new AbortController().signal;

function api(answer: () => Promise<LeaseCredentials>) {
  const calls = { credentials: [] as Lease[], report: [] as ReportFields[] };
  const leaseApi = fakeLeaseApi({
    async report(_lease, fields) {
      calls.report.push(fields);
      return {};
    },
    async credentials(lease) {
      calls.credentials.push(lease);
      return answer();
    },
  });
  return { leaseApi, calls };
}

/** An executor that records what it was handed, and what it still sees once its run returned. */
function recording() {
  const seen: { during?: Record<string, unknown>; tools?: LeaseTools; runs: number } = { runs: 0 };
  const executor: Executor = {
    name: "recording",
    async run(_lease, tools) {
      seen.runs++;
      seen.tools = tools;
      seen.during = Object.fromEntries(tools.credentials);
      return { outcome: "processed", response_text: "done" };
    },
  };
  return { executor, seen };
}

const declaring = () =>
  fakeLease({
    fleet: { name: "F", instructions: "", credentials: ["DEPLOY", "GONE"], tools: [], network_hosts: [] },
  });

describe("lease credentials on the runner", () => {
  it("posts the lease's fencing token to the credentials route", async () => {
    const seen: Array<{ url: string; init: RequestInit }> = [];
    const fetchImpl = (async (url: URL, init: RequestInit) => {
      seen.push({ url: String(url), init });
      const body = {
        lease_id: "l",
        credentials: [{ name: "DEPLOY", data: { token: CANARY } }],
        expires_at: 1,
      };
      return new Response(JSON.stringify(body), { status: 200 });
    }) as unknown as typeof fetch;
    const runner = new RunnerApi(
      new HttpClient("http://api.test", silentLogger, fetchImpl),
      "agt_rTOKEN123456",
    );
    const lease = declaring();
    const answer = await runner.credentials(lease);
    expect(answer.credentials).toEqual([{ name: "DEPLOY", data: { token: CANARY } }]);
    expect(seen[0]!.url).toBe(`http://api.test/v1/runners/me/leases/${lease.lease_id}/credentials`);
    expect(seen[0]!.init.method).toBe("POST");
    expect(JSON.parse(String(seen[0]!.init.body))).toEqual({ fencing_token: lease.fencing_token });
  });

  it("hands the values to the executor for its run only, empties them when the lease ends, never logs them", async () => {
    const { leaseApi, calls } = api(async () => ({
      lease_id: "l",
      credentials: [
        { name: "DEPLOY", data: { token: CANARY } },
        { name: "GONE", missing: true },
      ],
      expires_at: 1,
    }));
    const { executor, seen } = recording();
    const lines: string[] = [];
    const log = createLogger("debug", (line) => lines.push(line));
    const end = await runLease(declaring(), { api: leaseApi, executor, log }, never);
    expect(end).toBe("reported");
    expect(calls.credentials).toHaveLength(1);
    expect(calls.credentials[0]!.fencing_token).toBe(7);
    expect(seen.during).toEqual({ DEPLOY: { token: CANARY } });
    expect(seen.tools!.credentials.size).toBe(0);
    expect(lines.join("")).not.toContain(CANARY);
    expect(lines.join("")).toContain("credentials received");
  });

  it("does not ask when the fleet declares nothing", async () => {
    const { leaseApi, calls } = api(async () => {
      throw new Error("not asked");
    });
    const { executor, seen } = recording();
    expect(await runLease(fakeLease(), { api: leaseApi, executor, log: silentLogger }, never)).toBe(
      "reported",
    );
    expect(calls.credentials).toHaveLength(0);
    expect(seen.during).toEqual({});
  });

  it("reports a refused delivery (a degraded host) as fleet_error without running the executor", async () => {
    const { leaseApi, calls } = api(async () => {
      throw new ApiError(409, "UZ-EXEC-017", { detail: "degraded", current_state: "degraded" }, undefined);
    });
    const { executor, seen } = recording();
    expect(await runLease(declaring(), { api: leaseApi, executor, log: silentLogger }, never)).toBe(
      "reported",
    );
    expect(seen.runs).toBe(0);
    expect(calls.report).toEqual([
      expect.objectContaining({ outcome: "fleet_error", failure_label: "credentials_unavailable" }),
    ]);
  });

  it("drops a lease whose delivery says it was lost, reporting nothing", async () => {
    const { leaseApi, calls } = api(async () => {
      throw new ApiError(409, "UZ-RUN-005", { detail: "superseded" }, undefined);
    });
    const { executor, seen } = recording();
    expect(await runLease(declaring(), { api: leaseApi, executor, log: silentLogger }, never)).toBe("lost");
    expect(seen.runs).toBe(0);
    expect(calls.report).toEqual([]);
  });
});
