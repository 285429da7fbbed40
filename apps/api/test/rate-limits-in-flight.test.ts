import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { issueOperatorToken } from "../src/services/sessions/session-tokens.ts";
import { callAt, isolatedDatabase, sleep, startApi, type TestApi } from "./harness.ts";
import { expectRefusal, seed } from "./rate-limit-fixtures.ts";
import { fullReport } from "./runner-fixtures.ts";

describe("the instance's ceiling on requests in flight", () => {
  let api: TestApi;
  let drop: () => Promise<void>;
  // A database of its own: in the suite's shared one, another file's pending work could be leased to the
  // idle runner below, and its long poll would answer at once.
  beforeAll(async () => {
    const database = await isolatedDatabase();
    drop = database.drop;
    api = await startApi({ FLEET_MAX_IN_FLIGHT: "2", DATABASE_URL: database.url });
  }, 60_000);
  afterAll(async () => {
    await api.app.close();
    await api.database.close();
    await drop();
  });

  const HELD_BODY = JSON.stringify({ name: "held" });

  /** A request whose body never finishes arriving: it stays in flight until released. */
  function hold(): { release: () => Promise<number> } {
    const url = new URL(`${api.baseUrl}/v1/workspaces`);
    const request = httpRequest({
      host: url.hostname,
      port: url.port,
      path: url.pathname,
      method: "POST",
      headers: { "content-type": "application/json", "content-length": String(HELD_BODY.length) },
    });
    const answered = new Promise<number>((resolve) => {
      request.on("response", (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      });
      request.on("error", () => resolve(0));
    });
    request.write(HELD_BODY.slice(0, 1));
    return {
      release: () => {
        request.end(HELD_BODY.slice(1));
        return answered;
      },
    };
  }

  it("answers 429 past the ceiling, never for health, and admits again once a slot frees", async () => {
    const tenant = await seed(api);
    const held = [hold(), hold()];
    await sleep(200);
    const refused = await callAt(api.baseUrl, "GET", "/v1/users/me", { token: tenant.apiKey });
    expectRefusal(refused, /as many requests as it takes/);
    expect(refused.headers.get("retry-after")).toBe("1");
    for (const path of ["/healthz", "/readyz"]) {
      const answer = await callAt(api.baseUrl, "GET", path);
      expect(answer.status, path).toBe(200);
    }
    await Promise.all(held.map((h) => h.release()));
    const admitted = await callAt(api.baseUrl, "GET", "/v1/users/me", { token: tenant.apiKey });
    expect(admitted.status, admitted.text).toBe(200);
  });

  /** A runner's long poll for work that never comes: it stays in flight until its client goes away. */
  function waitForWork(token: string): { abandon: () => void } {
    const url = new URL(`${api.baseUrl}/v1/runners/me/leases`);
    const body = JSON.stringify({ wait_ms: 30_000 });
    const request = httpRequest({
      host: url.hostname,
      port: url.port,
      path: url.pathname,
      method: "POST",
      headers: {
        authorization: `Bearer ${token}`,
        "content-type": "application/json",
        "content-length": String(body.length),
      },
    });
    request.on("error", () => {});
    request.end(body);
    return { abandon: () => request.destroy() };
  }

  /** A runner enrolled on this instance's own database, which holds no fleet's work. */
  async function idleRunner(): Promise<string> {
    const operator = await issueOperatorToken(api.app.services, { scopes: ["runner:admin"] });
    const enrolled = await callAt<{ runner_token: string }>(api.baseUrl, "POST", "/v1/runners", {
      token: operator.token,
      body: { host_id: "idle-host", assigned_policy: { sandbox_tier: "landlock_full" }, labels: ["none"] },
    });
    expect(enrolled.status, enrolled.text).toBe(201);
    const token = enrolled.body.runner_token;
    const beat = await callAt(api.baseUrl, "POST", "/v1/runners/me/heartbeats", {
      token,
      body: { capability_report: fullReport },
    });
    expect(beat.status, beat.text).toBe(200);
    return token;
  }

  it("gives back the places of long polls whose clients went away before their answers", async () => {
    const tenant = await seed(api);
    const runner = await idleRunner();
    // The polls wait 30 s; 1.5 s lets a busy machine (the whole suite in parallel) count both first.
    const polls = [waitForWork(runner), waitForWork(runner)];
    await sleep(1_500);
    expect((await callAt(api.baseUrl, "GET", "/v1/users/me", { token: tenant.apiKey })).status).toBe(429);
    for (const poll of polls) poll.abandon();
    await sleep(300);
    // Both places are back: two more long polls fill the ceiling again, and no more.
    const again = [waitForWork(runner), waitForWork(runner)];
    await sleep(1_500);
    expect((await callAt(api.baseUrl, "GET", "/v1/users/me", { token: tenant.apiKey })).status).toBe(429);
    for (const poll of again) poll.abandon();
    await sleep(300);
    const admitted = await callAt(api.baseUrl, "GET", "/v1/users/me", { token: tenant.apiKey });
    expect(admitted.status, admitted.text).toBe(200);
  });
});
