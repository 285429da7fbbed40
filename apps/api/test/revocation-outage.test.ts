import { describe, expect, it } from "vitest";
import { call, callAt, databaseKind, seedTenant, startApi, testDatabaseUrl } from "./harness.ts";
import { proxyTo } from "./tcp-proxy.ts";

// Only PostgreSQL has a LISTEN connection to lose: PGlite delivers notifications in process.
describe.runIf(databaseKind === "postgres")("a key revoked while an instance cannot hear it", () => {
  it("lets an instance shut down while its database is out of reach", { timeout: 60_000 }, async () => {
    const direct = testDatabaseUrl();
    const { proxy, url: proxied } = await proxyTo(direct);
    const a = await startApi({ DATABASE_URL: proxied, FLEET_SCHEDULER_URL: direct });
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

  it("is not admitted from a cache whose LISTEN connection went silent without closing", {
    timeout: 90_000,
  }, async () => {
    const direct = testDatabaseUrl();
    const { proxy, url: proxied } = await proxyTo(direct);
    const a = await startApi({ DATABASE_URL: proxied, FLEET_SCHEDULER_URL: direct });
    try {
      const tenant = await seedTenant();
      const minted = await call<{ id: string; key: string }>("POST", "/v1/api-keys", {
        token: tenant.apiKey,
        body: { key_name: "partition" },
      });
      const me = (timeoutMs: number) =>
        fetch(`${a.baseUrl}/v1/users/me`, {
          headers: { authorization: `Bearer ${minted.body.key}` },
          signal: AbortSignal.timeout(timeoutMs),
        }).then(
          (response) => response.status,
          () => "no answer" as const,
        );
      expect(await me(5_000)).toBe(200); // now in A's cache

      // A partition: every connection of A stays open, and nothing passes (no FIN, no RST).
      proxy.stall();
      // The LISTEN connection's probe (every 10 s, 5 s to answer) finds it silent.
      await new Promise((resolve) => setTimeout(resolve, 16_000));
      const revoked = await call("PATCH", `/v1/api-keys/${minted.body.id}`, {
        token: tenant.apiKey,
        body: { active: false },
      });
      expect(revoked.status).toBe(200);
      // A cannot hear the NOTIFY nor read its database: it must not admit the key from its cache.
      expect(await me(3_000)).not.toBe(200);

      proxy.restore();
      await expect.poll(() => me(5_000), { timeout: 30_000 }).toBe(401);
    } finally {
      proxy.restore();
      await a.app.close();
      await a.database.close();
      await proxy.stop();
    }
  });

  it("is not admitted from that instance's cache, and is refused there once its database is back", {
    timeout: 60_000,
  }, async () => {
    const direct = testDatabaseUrl();
    const { proxy, url: proxied } = await proxyTo(direct);
    // Instance A reaches the database through the proxy; its scheduler, not the subject, goes direct.
    const a = await startApi({ DATABASE_URL: proxied, FLEET_SCHEDULER_URL: direct });
    try {
      const tenant = await seedTenant();
      const minted = await call<{ id: string; key: string }>("POST", "/v1/api-keys", {
        token: tenant.apiKey,
        body: { key_name: "outage" },
      });
      expect(minted.status).toBe(201);
      const me = () => callAt(a.baseUrl, "GET", "/v1/users/me", { token: minted.body.key });
      expect((await me()).status).toBe(200); // now in A's cache

      proxy.interrupt();
      const revoked = await call("PATCH", `/v1/api-keys/${minted.body.id}`, {
        token: tenant.apiKey,
        body: { active: false },
      });
      expect(revoked.status).toBe(200);

      // A never heard the NOTIFY and cannot reach its database: it may fail, but must not admit the key.
      const blind = await me();
      expect(blind.status === 401 || blind.status >= 500, `${blind.status} ${blind.text}`).toBe(true);

      proxy.restore();
      await expect.poll(async () => (await me()).status, { timeout: 15_000 }).toBe(401);
      expect((await me()).body.error_code).toBe("UZ-APIKEY-004");
    } finally {
      proxy.restore();
      await a.app.close();
      await a.database.close();
      await proxy.stop();
    }
  });
});
