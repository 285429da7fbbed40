import { heartbeat } from "@fleet/contracts/runners/heartbeat";
import { describe, expect, it } from "vitest";
import { backoffDelay } from "./backoff.ts";
import { ApiError, HttpClient, NetworkError } from "./http.ts";
import { silentLogger } from "./log.ts";

const answer = {
  status: "active",
  assigned_policy: null,
  degraded: true,
  degraded_reason: "no assigned policy",
};

/** A fetch that plays back `steps` in order: a status and body, or a thrown connection error. */
function scripted(steps: Array<{ status: number; body?: unknown } | { refused: true } | { reset: true }>) {
  const seen: Array<{ url: string; init: RequestInit }> = [];
  const fetchImpl = (async (url: URL, init: RequestInit) => {
    seen.push({ url: String(url), init });
    const step = steps.shift()!;
    if ("refused" in step || "reset" in step) {
      throw Object.assign(new TypeError("fetch failed"), {
        cause: { code: "refused" in step ? "ECONNREFUSED" : "ECONNRESET" },
      });
    }
    return new Response(step.body === undefined ? null : JSON.stringify(step.body), { status: step.status });
  }) as unknown as typeof fetch;
  return { fetchImpl, seen };
}

const problem = (code: string) => ({
  error_code: code,
  title: "t",
  detail: "d",
  request_id: "r",
  docs_uri: "u",
});

describe("HttpClient", () => {
  it("sends the bearer token and JSON body to the contract's method and path, and parses the answer", async () => {
    const { fetchImpl, seen } = scripted([{ status: 200, body: answer }]);
    const client = new HttpClient("http://api.test", silentLogger, fetchImpl);
    expect(
      await client.call(heartbeat, { token: "agt_rSECRET", body: { capability_report: undefined } }),
    ).toEqual(answer);
    expect(seen[0]!.url).toBe("http://api.test/v1/runners/me/heartbeats");
    expect(seen[0]!.init.method).toBe("POST");
    expect((seen[0]!.init.headers as Record<string, string>).authorization).toBe("Bearer agt_rSECRET");
  });

  it("retries network errors and 5xx, and gives a problem's error_code on refusal", async () => {
    const { fetchImpl, seen } = scripted([
      { reset: true },
      { status: 503, body: problem("UZ-INTERNAL-002") },
      { status: 200, body: answer },
      { status: 409, body: problem("UZ-RUN-005") },
    ]);
    const client = new HttpClient("http://api.test", silentLogger, fetchImpl);
    expect(await client.call(heartbeat, { token: "t" })).toEqual(answer);
    expect(seen).toHaveLength(3);
    const refusal = await client.call(heartbeat, { token: "t" }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(ApiError);
    expect(refusal).toMatchObject({ status: 409, code: "UZ-RUN-005" });
    expect(seen).toHaveLength(4);
  });

  it("retries a call that must not happen twice only when it cannot have landed", async () => {
    const { fetchImpl, seen } = scripted([{ refused: true }, { reset: true }]);
    const client = new HttpClient("http://api.test", silentLogger, fetchImpl);
    const failure = await client
      .call(heartbeat, { token: "t", retry: "unsent" })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(NetworkError);
    expect(seen).toHaveLength(2);
  });
});

describe("backoffDelay", () => {
  it("grows exponentially to its cap, with half of each delay jittered", () => {
    expect(backoffDelay(0, 250, 10_000, () => 0)).toBe(125);
    expect(backoffDelay(0, 250, 10_000, () => 1)).toBe(250);
    expect(backoffDelay(3, 250, 10_000, () => 0.5)).toBe(1_500);
    expect(backoffDelay(30, 250, 10_000, () => 1)).toBe(10_000);
  });
});
