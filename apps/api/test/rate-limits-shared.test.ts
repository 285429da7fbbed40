import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callAt, databaseKind, type Response, sleep, startApi, type TestApi, testApi } from "./harness.ts";
import { expectRefusal, LIMITED, mint, seed, WINDOW_S } from "./rate-limit-fixtures.ts";

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
