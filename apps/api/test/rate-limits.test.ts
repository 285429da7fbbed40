import { request as httpRequest } from "node:http";
import { connect } from "node:net";
import type { OutputOf } from "@fleet/contracts";
import type { createApiKey } from "@fleet/contracts/api-keys/create-api-key";
import type { listApiKeys } from "@fleet/contracts/api-keys/list-api-keys";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newId } from "../src/runtime/ids.ts";
import { issueOperatorToken, issueSession } from "../src/services/sessions/session-tokens.ts";
import { bootstrapTenant } from "../src/services/tenants/tenants.ts";
import {
  callAt,
  databaseKind,
  isolatedDatabase,
  type Response,
  startApi,
  type TestApi,
  testApi,
} from "./harness.ts";
import { fullReport } from "./runner-fixtures.ts";

type Minted = OutputOf<typeof createApiKey>;
type Page = OutputOf<typeof listApiKeys>;

/** The quotas of the limited instances: a 2 s window, so a spent token comes back within a second. */
const WINDOW_S = 2;
const WORKSPACE_QUOTA = 5;
const LIMITED = {
  FLEET_RATE_LIMIT_WINDOW_SECONDS: String(WINDOW_S),
  FLEET_RATE_LIMIT_WORKSPACE: String(WORKSPACE_QUOTA),
  FLEET_RATE_LIMIT_CREDENTIAL: "1000",
};

interface Seeded {
  tenantId: string;
  workspaceId: string;
  userId: string;
  email: string;
  apiKey: string;
}

/** A tenant made through the given instance (on PGlite each instance has a database of its own). */
async function seed(api: TestApi): Promise<Seeded> {
  const email = `limits-${newId()}@example.test`;
  const made = await bootstrapTenant(api.app.services, { tenantName: "limits", email });
  return {
    tenantId: made.tenant_id,
    workspaceId: made.workspace_id,
    userId: made.user_id,
    email,
    apiKey: made.api_key,
  };
}

async function mint(api: TestApi, tenant: Seeded, body: Record<string, unknown>) {
  return callAt<Minted>(api.baseUrl, "POST", "/v1/api-keys", { token: tenant.apiKey, body });
}

function expectRefusal(answer: Response, detail: RegExp) {
  expect(answer.status, answer.text).toBe(429);
  expect(answer.headers.get("content-type")).toMatch(/^application\/problem\+json/);
  expect(answer.body).toMatchObject({ error_code: "UZ-API-001" });
  expect(String(answer.body.detail)).toMatch(detail);
  const retryAfter = answer.headers.get("retry-after");
  expect(retryAfter).toMatch(/^[1-9]\d*$/);
  return Number(retryAfter);
}

function limitHeaders(answer: Response) {
  return {
    limit: answer.headers.get("ratelimit-limit"),
    remaining: answer.headers.get("ratelimit-remaining"),
    reset: answer.headers.get("ratelimit-reset"),
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("rate limits", () => {
  let api: TestApi;
  beforeAll(async () => {
    const shared = await testApi();
    api = await startApi({ ...LIMITED, DATABASE_URL: shared.config.databaseUrl });
  }, 60_000);
  afterAll(async () => {
    await api.app.close();
    await api.database.close();
  });

  it("refuses past a key's quota with 429 UZ-API-001, an integer Retry-After and RateLimit headers", async () => {
    const tenant = await seed(api);
    const minted = await mint(api, tenant, { key_name: "small", rate_limit: 3 });
    expect(minted.status, minted.text).toBe(201);
    expect(minted.body.rate_limit).toBe(3);
    const key = minted.body.key;
    const answers: Response[] = [];
    const started = Date.now();
    for (let i = 0; i < 3; i++) {
      const answer = await callAt(api.baseUrl, "GET", "/v1/users/me", { token: key });
      expect(answer.status, answer.text).toBe(200);
      // One spelling on an admitted answer; the X- spelling is the refusal's.
      expect(answer.headers.get("x-ratelimit-limit")).toBeNull();
      answers.push(answer);
    }
    const elapsed = Date.now() - started;
    // While more than half the quota is left (2 of 3 after the first call) an admitted answer carries no
    // RateLimit headers; from half spent on, every one does.
    expect(limitHeaders(answers[0]!)).toEqual({ limit: null, remaining: null, reset: null });
    const seen = answers.slice(1).map(limitHeaders);
    for (const headers of seen) {
      if (headers.limit === null) continue; // a token came back meanwhile: more than half left again
      expect(headers.limit).toBe("3");
      expect(headers.reset).toMatch(/^[1-9]\d*$/);
      expect(2 * Number(headers.remaining)).toBeLessThanOrEqual(3);
    }
    // A token refills every 667 ms: calls quicker than that have seen none come back.
    if (elapsed < 600) expect(seen.map((headers) => Number(headers.remaining))).toEqual([1, 0]);
    let refused = await callAt(api.baseUrl, "GET", "/v1/users/me", { token: key });
    if (refused.status === 200) refused = await callAt(api.baseUrl, "GET", "/v1/users/me", { token: key });
    const retryAfter = expectRefusal(refused, /credential's request quota/);
    expect(retryAfter).toBeLessThanOrEqual(WINDOW_S);
    expect(limitHeaders(refused)).toMatchObject({ limit: "3", remaining: "0" });
    expect(refused.headers.get("x-ratelimit-limit")).toBe("3");
    expect(refused.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(refused.headers.get("x-ratelimit-reset")).toBe(refused.headers.get("ratelimit-reset"));

    // Retry-After is honest: waiting it lets the next request through.
    await sleep(retryAfter * 1000);
    const after = await callAt(api.baseUrl, "GET", "/v1/users/me", { token: key });
    expect(after.status, after.text).toBe(200);
  });

  it("writes the headers on any answer to a counted call once half the quota is spent, a 404 too", async () => {
    const tenant = await seed(api);
    const minted = await mint(api, tenant, { key_name: "half", rate_limit: 2 });
    const missing = `/v1/workspaces/${newId()}/fleets`;
    const answer = await callAt(api.baseUrl, "GET", missing, { token: minted.body.key });
    expect(answer.status, answer.text).toBe(404);
    expect(answer.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    // The credential's bucket (1 of 2 left) has fewer requests left than that workspace's (4 of 5).
    expect(limitHeaders(answer)).toMatchObject({ limit: "2", remaining: "1" });
    expect(answer.headers.get("x-ratelimit-limit")).toBeNull();
  });

  it("takes a per-key quota at mint, echoes it in reads, and bounds it", async () => {
    const tenant = await seed(api);
    const tight = await mint(api, tenant, { key_name: "tight", rate_limit: 2 });
    const plain = await mint(api, tenant, { key_name: "plain" });
    expect(plain.body.rate_limit).toBeNull();
    const list = await callAt<Page>(api.baseUrl, "GET", "/v1/api-keys", { token: tenant.apiKey });
    const byName = Object.fromEntries(list.body.items.map((item) => [item.key_name, item.rate_limit]));
    expect(byName).toMatchObject({ tight: 2, plain: null });

    const answers = [];
    for (let i = 0; i < 4; i++)
      answers.push(await callAt(api.baseUrl, "GET", "/v1/users/me", { token: tight.body.key }));
    expect(answers.filter((answer) => answer.status === 429).length).toBeGreaterThanOrEqual(1);
    // The sibling key of the same person has its own bucket, at the instance's default: its first
    // answer leaves 999 of 1,000, so it carries no RateLimit headers.
    const sibling = await callAt(api.baseUrl, "GET", "/v1/users/me", { token: plain.body.key });
    expect(sibling.status).toBe(200);
    expect(limitHeaders(sibling).limit).toBeNull();

    for (const rate_limit of [0, -1, 1_000_001, 2.5, "5", true]) {
      const refused = await mint(api, tenant, { key_name: "bad", rate_limit });
      expect(refused.status, JSON.stringify(rate_limit)).toBe(400);
      expect(refused.body).toMatchObject({ error_code: "UZ-REQ-001" });
    }
    const explicitDefault = await mint(api, tenant, { key_name: "default", rate_limit: null });
    expect(explicitDefault.status).toBe(201);
    expect(explicitDefault.body.rate_limit).toBeNull();
  });

  it("limits a workspace on its own: A at its limit leaves B and another tenant's untouched", async () => {
    const tenant = await seed(api);
    const other = await seed(api);
    const created = await callAt<{ workspace_id: string }>(api.baseUrl, "POST", "/v1/workspaces", {
      token: tenant.apiKey,
      body: { name: `b-${newId()}` },
    });
    expect(created.status, created.text).toBe(201);
    const a = tenant.workspaceId;
    const b = created.body.workspace_id;
    // Another tenant naming A's id spends its own bucket, never A's.
    for (let i = 0; i < WORKSPACE_QUOTA + 2; i++) {
      const foreign = await callAt(api.baseUrl, "GET", `/v1/workspaces/${a}/fleets`, { token: other.apiKey });
      expect([404, 429]).toContain(foreign.status);
    }
    const statuses: number[] = [];
    let refusal: Response | null = null;
    for (let i = 0; i < WORKSPACE_QUOTA + 3; i++) {
      const answer = await callAt(api.baseUrl, "GET", `/v1/workspaces/${a}/fleets`, { token: tenant.apiKey });
      statuses.push(answer.status);
      if (answer.status === 429) refusal ??= answer;
    }
    // The whole quota was there for A's own tenant (a token may refill meanwhile).
    expect(statuses.slice(0, WORKSPACE_QUOTA)).toEqual(Array(WORKSPACE_QUOTA).fill(200));
    expect(refusal).not.toBeNull();
    expectRefusal(refusal!, /workspace's request quota/);
    expect(limitHeaders(refusal!).limit).toBe(String(WORKSPACE_QUOTA));

    const inB = await callAt(api.baseUrl, "GET", `/v1/workspaces/${b}/fleets`, { token: tenant.apiKey });
    expect(inB.status, inB.text).toBe(200);
    const own = await callAt(api.baseUrl, "GET", `/v1/workspaces/${other.workspaceId}/fleets`, {
      token: other.apiKey,
    });
    expect(own.status, own.text).toBe(200);
    // Tenant-level routes count against the key only.
    const me = await callAt(api.baseUrl, "GET", "/v1/users/me", { token: tenant.apiKey });
    expect(me.status).toBe(200);
  });

  it("limits the console's /trpc calls too, with Retry-After on the refusal", async () => {
    const tenant = await seed(api);
    const { token } = await issueSession(api.app.services, {
      email: tenant.email,
      tenantId: tenant.tenantId,
      kind: "session",
    });
    const input = encodeURIComponent(JSON.stringify({ workspace_id: tenant.workspaceId }));
    // One call alone leaves 4 of the workspace's 5: more than half, so no RateLimit headers.
    const first = await callAt(api.baseUrl, "GET", `/trpc/fleets.list?input=${input}`, {
      headers: { cookie: `fleet_session=${token}` },
    });
    expect(first.status, first.text).toBe(200);
    expect(limitHeaders(first)).toEqual({ limit: null, remaining: null, reset: null });
    // At once, so the burst outruns the refill (a token every 400 ms) however slowly each call is answered.
    const answers: Response[] = await Promise.all(
      Array.from({ length: 3 * WORKSPACE_QUOTA }, () =>
        callAt(api.baseUrl, "GET", `/trpc/fleets.list?input=${input}`, {
          headers: { cookie: `fleet_session=${token}` },
        }),
      ),
    );
    // Admitted answers carry the workspace bucket's headers (it has fewer requests left than the
    // credential's) once half of it is spent: at most 2 of 5 left.
    const admitted = answers.filter((answer) => answer.status === 200).map(limitHeaders);
    const told = admitted.filter((headers) => headers.limit !== null);
    expect(told.length, answers.map((answer) => answer.status).join(" ")).toBeGreaterThan(0);
    for (const headers of told) {
      expect(headers.limit).toBe(String(WORKSPACE_QUOTA));
      expect(Number(headers.remaining)).toBeLessThanOrEqual(WORKSPACE_QUOTA / 2);
    }
    const refused = answers.find((answer) => answer.status === 429);
    expect(refused).toBeDefined();
    expect(refused!.headers.get("retry-after")).toMatch(/^[1-9]\d*$/);
    expect(JSON.stringify(refused!.body)).toContain("UZ-API-001");
  });

  it("never limits health and readiness", async () => {
    const tenant = await seed(api);
    const minted = await mint(api, tenant, { key_name: "one", rate_limit: 1 });
    await callAt(api.baseUrl, "GET", "/v1/users/me", { token: minted.body.key });
    const refused = await callAt(api.baseUrl, "GET", "/v1/users/me", { token: minted.body.key });
    expect(refused.status).toBe(429);
    for (let i = 0; i < 50; i++) {
      for (const path of ["/healthz", "/readyz"]) {
        const answer = await callAt(api.baseUrl, "GET", path, { token: minted.body.key });
        expect(answer.status, `${path}: ${answer.text}`).toBe(200);
        expect(answer.headers.get("ratelimit-limit")).toBeNull();
      }
    }
  });

  it("admits at most the quota from a concurrent burst", async () => {
    const tenant = await seed(api);
    const quota = 10;
    const minted = await mint(api, tenant, { key_name: "burst", rate_limit: quota });
    const started = Date.now();
    const answers = await Promise.all(
      Array.from({ length: 60 }, () =>
        callAt(api.baseUrl, "GET", "/v1/users/me", { token: minted.body.key }),
      ),
    );
    const elapsed = Date.now() - started;
    const admitted = answers.filter((answer) => answer.status === 200).length;
    expect(answers.every((answer) => answer.status === 200 || answer.status === 429)).toBe(true);
    // The quota, plus what refilled while the burst ran; a quota this small is drawn one token at a
    // time from the shared store, so there is no batch overshoot (docs/decisions.md).
    const refilled = Math.ceil((elapsed * quota) / (WINDOW_S * 1000));
    expect(admitted).toBeGreaterThanOrEqual(quota);
    expect(admitted).toBeLessThanOrEqual(quota + refilled);
  });
});

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

// Instances share buckets through PostgreSQL; PGlite is one process's database.
describe.runIf(databaseKind === "postgres")("a quota shared by two instances", () => {
  let first: TestApi;
  let second: TestApi;
  beforeAll(async () => {
    const shared = await testApi();
    first = await startApi({ ...LIMITED, DATABASE_URL: shared.config.databaseUrl });
    second = await startApi({ ...LIMITED, DATABASE_URL: shared.config.databaseUrl });
  }, 60_000);
  afterAll(async () => {
    for (const api of [first, second]) {
      await api.app.close();
      await api.database.close();
    }
  });

  it("does not double a small quota across instances", async () => {
    const tenant = await seed(first);
    const quota = 6;
    const minted = await mint(first, tenant, { key_name: "shared", rate_limit: quota });
    const started = Date.now();
    const answers: Response[] = [];
    for (let i = 0; i < quota * 2; i++) {
      const at = i % 2 === 0 ? first : second;
      answers.push(await callAt(at.baseUrl, "GET", "/v1/users/me", { token: minted.body.key }));
    }
    const elapsed = Date.now() - started;
    const admitted = answers.filter((answer) => answer.status === 200).length;
    const refilled = Math.ceil((elapsed * quota) / (WINDOW_S * 1000));
    expect(admitted).toBeGreaterThanOrEqual(quota);
    expect(admitted).toBeLessThanOrEqual(quota + refilled);
    expect(answers.some((answer) => answer.status === 429)).toBe(true);
  });

  it("holds a larger quota's concurrent burst through both instances to the quota plus the batch overshoot", async () => {
    const tenant = await seed(first);
    const quota = 400;
    const minted = await mint(first, tenant, { key_name: "wide", rate_limit: quota });
    const started = Date.now();
    const answers = await Promise.all(
      Array.from({ length: quota * 2 }, (_, i) =>
        callAt((i % 2 === 0 ? first : second).baseUrl, "GET", "/v1/users/me", { token: minted.body.key }),
      ),
    );
    const elapsed = Date.now() - started;
    const admitted = answers.filter((answer) => answer.status === 200).length;
    const refilled = Math.ceil((elapsed * quota) / (WINDOW_S * 1000));
    // Each instance may hold a batch (quota / 40, at most 1,000) the other could not see, and spend
    // another on credit while a draw is on its way.
    const overshoot = 2 * 2 * Math.floor(quota / 40);
    expect(answers.every((answer) => answer.status === 200 || answer.status === 429)).toBe(true);
    expect(admitted).toBeLessThanOrEqual(quota + refilled + overshoot);
  });
});

/** Redis for the shared buckets when REDIS_URL is set: at TEST_REDIS_URL, when one answers there. */
const redisUrl = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const redisReachable = await new Promise<boolean>((resolve) => {
  const { hostname, port } = new URL(redisUrl);
  const socket = connect({ host: hostname, port: Number(port || 6379) });
  socket.setTimeout(1_000);
  socket.once("connect", () => {
    socket.end();
    resolve(true);
  });
  socket.once("error", () => resolve(false));
  socket.once("timeout", () => {
    socket.destroy();
    resolve(false);
  });
});

describe.runIf(databaseKind === "postgres" && redisReachable)("a quota shared through Redis", () => {
  let first: TestApi;
  let second: TestApi;
  beforeAll(async () => {
    const shared = await testApi();
    const env = { ...LIMITED, DATABASE_URL: shared.config.databaseUrl, REDIS_URL: redisUrl };
    first = await startApi(env);
    second = await startApi(env);
  }, 60_000);
  afterAll(async () => {
    for (const api of [first, second]) {
      await api.app.close();
      await api.database.close();
    }
  });

  it("does not double a quota across instances, and Retry-After is honest there too", async () => {
    const tenant = await seed(first);
    const quota = 6;
    const minted = await mint(first, tenant, { key_name: "redis", rate_limit: quota });
    const started = Date.now();
    const answers: Response[] = [];
    for (let i = 0; i < quota * 2; i++) {
      const at = i % 2 === 0 ? first : second;
      answers.push(await callAt(at.baseUrl, "GET", "/v1/users/me", { token: minted.body.key }));
    }
    const elapsed = Date.now() - started;
    const admitted = answers.filter((answer) => answer.status === 200).length;
    expect(admitted).toBeGreaterThanOrEqual(quota);
    expect(admitted).toBeLessThanOrEqual(quota + Math.ceil((elapsed * quota) / (WINDOW_S * 1000)));
    const refused = answers.findLast((answer) => answer.status === 429)!;
    const retryAfter = expectRefusal(refused, /credential's request quota/);
    await sleep(retryAfter * 1000);
    const after = await callAt(second.baseUrl, "GET", "/v1/users/me", { token: minted.body.key });
    expect(after.status, after.text).toBe(200);
  });
});
