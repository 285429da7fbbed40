import type { OutputOf } from "@fleet/contracts";
import type { listApiKeys } from "@fleet/contracts/api-keys/list-api-keys";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newId } from "../src/runtime/ids.ts";
import { issueSession } from "../src/services/sessions/session-tokens.ts";
import { callAt, type Response, sleep, startApi, type TestApi, testApi } from "./harness.ts";
import {
  expectRefusal,
  LIMITED,
  limitHeaders,
  mint,
  seed,
  WINDOW_S,
  WORKSPACE_QUOTA,
} from "./rate-limit-fixtures.ts";

type Page = OutputOf<typeof listApiKeys>;

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
    // time from the shared store, so there is no batch overshoot (docs/decisions/limits.md, "Rate limits").
    const refilled = Math.ceil((elapsed * quota) / (WINDOW_S * 1000));
    expect(admitted).toBeGreaterThanOrEqual(quota);
    expect(admitted).toBeLessThanOrEqual(quota + refilled);
  });
});
