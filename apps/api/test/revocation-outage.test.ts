import type { OutputOf } from "@fleet/contracts";
import type { createApiKey } from "@fleet/contracts/api-keys/create-api-key";
import { describe, expect, it } from "vitest";
import { call, databaseKind, seedTenant, startApi, type TestApi, testDatabaseUrl } from "./harness.ts";
import { proxyTo, type TcpProxy } from "./tcp-proxy.ts";

/**
 * Instance A, whose database connections go through a proxy the test cuts or stalls (its scheduler, not
 * the subject, goes direct), and a tenant's key A has admitted once, so it sits in A's cache. Revoking
 * goes through the shared API (B), which A can only hear of by NOTIFY.
 */
async function cachedOnA(name: string) {
  const direct = testDatabaseUrl();
  const { proxy, url } = await proxyTo(direct);
  const a = await startApi({ DATABASE_URL: url, FLEET_SCHEDULER_URL: direct });
  const tenant = await seedTenant();
  const minted = await call<OutputOf<typeof createApiKey>>("POST", "/v1/api-keys", {
    token: tenant.apiKey,
    body: { key_name: name },
  });
  expect(minted.status).toBe(201);
  /** A's answer to the key: its status, or "no answer" within `timeoutMs`. */
  const me = (timeoutMs = 5_000) =>
    fetch(`${a.baseUrl}/v1/users/me`, {
      headers: { authorization: `Bearer ${minted.body.key}` },
      signal: AbortSignal.timeout(timeoutMs),
    }).then(
      (response) => response.status,
      () => "no answer" as const,
    );
  expect(await me()).toBe(200);
  const revoke = async () => {
    const revoked = await call("PATCH", `/v1/api-keys/${minted.body.id}`, {
      token: tenant.apiKey,
      body: { active: false },
    });
    expect(revoked.status).toBe(200);
  };
  return { a, proxy, me, revoke };
}

async function stop(a: TestApi, proxy: TcpProxy) {
  proxy.restore();
  await a.app.close();
  await a.database.close();
  await proxy.stop();
}

// Only PostgreSQL has a LISTEN connection to lose: PGlite delivers notifications in process.
describe.runIf(databaseKind === "postgres")("a key revoked while an instance cannot hear it", () => {
  it("lets an instance shut down while its database is out of reach", { timeout: 60_000 }, async () => {
    const direct = testDatabaseUrl();
    const { proxy, url } = await proxyTo(direct);
    const a = await startApi({ DATABASE_URL: url, FLEET_SCHEDULER_URL: direct });
    try {
      proxy.interrupt();
      const started = Date.now();
      // Unsubscribing waited for a database that never came back: the shutdown hung.
      await a.app.close();
      await a.database.close();
      expect(Date.now() - started).toBeLessThan(20_000);
    } finally {
      await proxy.stop();
    }
  });

  it("is not admitted from that instance's cache, and is refused there once its database is back", {
    timeout: 60_000,
  }, async () => {
    const { a, proxy, me, revoke } = await cachedOnA("outage");
    try {
      proxy.interrupt(); // every connection of A closed, and new ones refused
      await revoke();
      // A never heard the NOTIFY and cannot reach its database: it may fail, but must not admit the key.
      const blind = await me();
      expect(blind === 401 || (typeof blind === "number" && blind >= 500), String(blind)).toBe(true);
      proxy.restore();
      await expect.poll(() => me(), { timeout: 15_000 }).toBe(401);
    } finally {
      await stop(a, proxy);
    }
  });

  it("is not admitted from a cache whose LISTEN connection went silent without closing", {
    timeout: 90_000,
  }, async () => {
    const { a, proxy, me, revoke } = await cachedOnA("partition");
    try {
      // A partition: every connection of A stays open, and nothing passes (no FIN, no RST).
      proxy.stall();
      // The LISTEN connection's probe (every 10 s, 5 s to answer) finds it silent.
      await new Promise((resolve) => setTimeout(resolve, 16_000));
      await revoke();
      // A cannot hear the NOTIFY nor read its database: it must not admit the key from its cache.
      expect(await me(3_000)).not.toBe(200);
      proxy.restore();
      await expect.poll(() => me(), { timeout: 30_000 }).toBe(401);
    } finally {
      await stop(a, proxy);
    }
  });
});
