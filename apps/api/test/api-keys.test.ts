import type { OutputOf } from "@fleet/contracts";
import type { createApiKey } from "@fleet/contracts/api-keys/create-api-key";
import type { listApiKeys } from "@fleet/contracts/api-keys/list-api-keys";
import { apiKeys, sql } from "@fleet/db";
import { describe, expect, it } from "vitest";
import { call, seedMember, seedTenant, testApi } from "./harness.ts";

type Minted = OutputOf<typeof createApiKey>;
type Page = OutputOf<typeof listApiKeys>;

describe("tenant API keys", () => {
  it("mints an agt_t key shown once, with no-store, that then authenticates as its creator", async () => {
    const tenant = await seedTenant();
    const minted = await call<Minted>("POST", "/v1/api-keys", {
      token: tenant.apiKey,
      body: { key_name: "  deploy-bot  ", description: "CI deploys" },
    });
    expect(minted.status).toBe(201);
    expect(minted.headers.get("cache-control")).toBe("no-store");
    expect(Object.keys(minted.body).sort()).toEqual([
      "created_at",
      "expires_at",
      "id",
      "key",
      "key_name",
      "key_prefix",
      "rate_limit",
      "scopes",
    ]);
    expect(minted.body).toMatchObject({ scopes: null, expires_at: null });
    expect(minted.body.key.startsWith(minted.body.key_prefix)).toBe(true);
    expect(minted.body.key_prefix).toHaveLength(13);
    expect(minted.body.key).toMatch(/^agt_t[A-Za-z0-9_-]{43}$/);
    expect(minted.body.key_name).toBe("deploy-bot");
    expect(minted.body.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);

    const me = await call("GET", "/v1/users/me", { token: minted.body.key });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({
      credential: "tenant_api_key",
      user_id: tenant.userId,
      tenant_id: tenant.tenantId,
    });

    const list = await call<Page>("GET", "/v1/api-keys", { token: tenant.apiKey });
    const row = list.body.items.find((item) => item.id === minted.body.id);
    expect(row).toMatchObject({
      key_name: "deploy-bot",
      active: true,
      revoked_at: null,
      key_prefix: minted.body.key_prefix,
      scopes: null,
      expires_at: null,
    });
    expect(JSON.stringify(list.body)).not.toContain(minted.body.key);
  });

  it("stores only the SHA-256: the plaintext appears nowhere in the database", async () => {
    const tenant = await seedTenant();
    const minted = await call<Minted>("POST", "/v1/api-keys", {
      token: tenant.apiKey,
      body: { key_name: "scan" },
    });
    const api = await testApi();
    const tables = await api.database.query<{ table_name: string }>(
      "select table_name from information_schema.tables where table_schema = 'public'",
    );
    for (const { table_name } of tables) {
      const rows = await api.database.query(`select * from "${table_name}"`);
      const dump = JSON.stringify(rows);
      expect(dump, `plaintext key found in ${table_name}`).not.toContain(minted.body.key);
      expect(dump).not.toContain(minted.body.key.slice(5)); // the random part without its prefix
    }
    const [row] = await api.database.db
      .select({ hash: apiKeys.keyHash })
      .from(apiKeys)
      .where(sql`${apiKeys.id} = ${minted.body.id}`);
    expect(row?.hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it("requires key_name and refuses unknown fields, changing nothing", async () => {
    const tenant = await seedTenant();
    const missing = await call("POST", "/v1/api-keys", { token: tenant.apiKey, body: { description: "x" } });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ error_code: "UZ-REQ-001", detail: "key_name is required." });
    const unknown = await call("POST", "/v1/api-keys", {
      token: tenant.apiKey,
      body: { key_name: "a", owner: "x" },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.detail).toContain("owner");
    const control = await call("POST", "/v1/api-keys", {
      token: tenant.apiKey,
      body: { key_name: "a\u202eb" },
    });
    expect(control.status).toBe(400);
    const list = await call<Page>("GET", "/v1/api-keys", { token: tenant.apiKey });
    expect(list.body.total).toBe(1); // only the bootstrap key
  });

  it("pages by cursor in each sort, with total, and refuses page/page_size and foreign cursors", async () => {
    const tenant = await seedTenant();
    for (const name of ["delta", "alpha", "charlie", "bravo", "echo"]) {
      const minted = await call("POST", "/v1/api-keys", { token: tenant.apiKey, body: { key_name: name } });
      expect(minted.status).toBe(201);
    }
    const names: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query = `?sort=key_name&limit=2${cursor ? `&starting_after=${cursor}` : ""}`;
      const page: { body: Page } = await call<Page>("GET", `/v1/api-keys${query}`, { token: tenant.apiKey });
      expect(page.body.total).toBe(6);
      names.push(...page.body.items.map((item) => item.key_name));
      cursor = page.body.next_cursor;
      pages++;
    } while (cursor !== null);
    expect(names).toEqual(["alpha", "bootstrap", "bravo", "charlie", "delta", "echo"]);
    expect(pages).toBe(3);

    const newest = await call<Page>("GET", "/v1/api-keys?limit=3", { token: tenant.apiKey });
    expect(newest.body.items.map((item) => item.key_name)).toEqual(["echo", "bravo", "charlie"]);
    const rest = await call<Page>(`GET`, `/v1/api-keys?limit=3&starting_after=${newest.body.next_cursor}`, {
      token: tenant.apiKey,
    });
    expect(rest.body.items.map((item) => item.key_name)).toEqual(["alpha", "delta", "bootstrap"]);
    expect(rest.body.next_cursor).toBeNull();

    for (const bad of [
      "page=2",
      "page_size=10",
      "cursor=abc",
      "limit=0",
      "limit=101",
      "limit=abc",
      "sort=name",
      "starting_after=bogus",
    ]) {
      const response = await call("GET", `/v1/api-keys?${bad}`, { token: tenant.apiKey });
      expect(response.status, bad).toBe(400);
      expect(response.body.error_code, bad).toBe("UZ-REQ-001");
    }
    const foreign = await call(
      "GET",
      `/v1/api-keys?sort=key_name&starting_after=${newest.body.next_cursor}`,
      { token: tenant.apiKey },
    );
    expect(foreign.status).toBe(400);
  });

  it("revokes once (401 UZ-APIKEY-004 at once), refuses a second revoke, and deletes only revoked keys", async () => {
    const tenant = await seedTenant();
    const minted = await call<Minted>("POST", "/v1/api-keys", {
      token: tenant.apiKey,
      body: { key_name: "short-lived" },
    });
    expect((await call("GET", "/v1/users/me", { token: minted.body.key })).status).toBe(200); // now cached

    const early = await call("DELETE", `/v1/api-keys/${minted.body.id}`, { token: tenant.apiKey });
    expect(early.status).toBe(409);
    expect(early.body).toMatchObject({ error_code: "UZ-APIKEY-005", current_state: "active" });

    const restore = await call("PATCH", `/v1/api-keys/${minted.body.id}`, {
      token: tenant.apiKey,
      body: { active: true },
    });
    expect(restore.status).toBe(400);

    const revoked = await call("PATCH", `/v1/api-keys/${minted.body.id}`, {
      token: tenant.apiKey,
      body: { active: false },
    });
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({ id: minted.body.id, active: false });
    expect(typeof revoked.body.revoked_at).toBe("number");

    const refused = await call("GET", "/v1/users/me", { token: minted.body.key });
    expect(refused.status).toBe(401);
    expect(refused.body.error_code).toBe("UZ-APIKEY-004");

    const again = await call("PATCH", `/v1/api-keys/${minted.body.id}`, {
      token: tenant.apiKey,
      body: { active: false },
    });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ error_code: "UZ-APIKEY-006", current_state: "revoked" });

    const deleted = await call("DELETE", `/v1/api-keys/${minted.body.id}`, { token: tenant.apiKey });
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe("");
    const gone = await call("DELETE", `/v1/api-keys/${minted.body.id}`, { token: tenant.apiKey });
    expect(gone.status).toBe(404);
    expect((await call("GET", "/v1/users/me", { token: minted.body.key })).status).toBe(401);
  });

  it("lets exactly one of many concurrent revokes win", async () => {
    const tenant = await seedTenant();
    const minted = await call<Minted>("POST", "/v1/api-keys", {
      token: tenant.apiKey,
      body: { key_name: "raced" },
    });
    const answers = await Promise.all(
      Array.from({ length: 12 }, () =>
        call("PATCH", `/v1/api-keys/${minted.body.id}`, { token: tenant.apiKey, body: { active: false } }),
      ),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(11);
  });

  it("acts with its creator's current scopes: narrowing the membership narrows the key at once", async () => {
    const tenant = await seedTenant();
    const member = await seedMember(tenant, ["apikey:write"]);
    const minted = await call<Minted>("POST", "/v1/api-keys", {
      token: member.token,
      body: { key_name: "member-key" },
    });
    expect(minted.status).toBe(201);
    expect((await call("GET", "/v1/api-keys", { token: minted.body.key })).status).toBe(200);
    const api = await testApi();
    const { upsertMember } = await import("../src/services/members/members.ts");
    await upsertMember(api.app.services, {
      tenantId: tenant.tenantId,
      email: member.email,
      scopes: ["fleet:read"],
    });
    const narrowed = await call("GET", "/v1/api-keys", { token: minted.body.key });
    expect(narrowed.status).toBe(403);
    expect(narrowed.body.detail).toContain("apikey:read");
  });

  it("mints a key narrowed to a subset of the minter's scopes, and refuses scopes the minter lacks", async () => {
    const tenant = await seedTenant();
    const member = await seedMember(tenant, ["apikey:write", "fleet:read"]);
    const narrow = await call<Minted>("POST", "/v1/api-keys", {
      token: member.token,
      body: { key_name: "reader", scopes: ["fleet:read", "fleet:read"] },
    });
    expect(narrow.status).toBe(201);
    expect(narrow.body.scopes).toEqual(["fleet:read"]);
    const me = await call<{ scopes: string[] }>("GET", "/v1/users/me", { token: narrow.body.key });
    expect(me.status).toBe(200);
    expect(me.body.scopes).toEqual(["fleet:read"]);
    const denied = await call("GET", "/v1/api-keys", { token: narrow.body.key });
    expect(denied.status).toBe(403);
    expect(denied.body.error_code).toBe("UZ-AUTH-022");

    const wider = await call("POST", "/v1/api-keys", {
      token: member.token,
      body: { key_name: "wider", scopes: ["fleet:read", "fleet:admin"] },
    });
    expect(wider.status).toBe(403);
    expect(wider.body).toMatchObject({ error_code: "UZ-AUTH-022" });
    expect(wider.body.detail).toContain("fleet:admin");
    // A key minted by the narrowed key holds no more than it: here it may not mint at all (apikey:write).
    const byNarrow = await call("POST", "/v1/api-keys", {
      token: narrow.body.key,
      body: { key_name: "child" },
    });
    expect(byNarrow.status).toBe(403);
    const list = await call<Page>("GET", "/v1/api-keys", { token: tenant.apiKey });
    expect(list.body.items.map((item) => item.key_name).sort()).toEqual(["bootstrap", "reader"]);
    expect(list.body.items.find((item) => item.key_name === "reader")?.scopes).toEqual(["fleet:read"]);
  });

  it("a key minted without scopes by a narrowed key takes that key's scopes, not its creator's", async () => {
    const tenant = await seedTenant();
    const narrow = await call<Minted>("POST", "/v1/api-keys", {
      token: tenant.apiKey,
      body: { key_name: "minter", scopes: ["apikey:write", "fleet:read"] },
    });
    const child = await call<Minted>("POST", "/v1/api-keys", {
      token: narrow.body.key,
      body: { key_name: "child" },
    });
    expect(child.status).toBe(201);
    expect(child.body.scopes?.sort()).toEqual(["apikey:write", "fleet:read"]);
    const me = await call<{ scopes: string[] }>("GET", "/v1/users/me", { token: child.body.key });
    expect(me.body.scopes.sort()).toEqual(["apikey:write", "fleet:read"]);
  });

  it("a narrowed key still acts only with the scopes its creator holds now", async () => {
    const tenant = await seedTenant();
    const member = await seedMember(tenant, ["apikey:write", "fleet:read"]);
    const minted = await call<Minted>("POST", "/v1/api-keys", {
      token: member.token,
      body: { key_name: "k", scopes: ["apikey:write", "fleet:read"] },
    });
    const api = await testApi();
    const { upsertMember } = await import("../src/services/members/members.ts");
    await upsertMember(api.app.services, {
      tenantId: tenant.tenantId,
      email: member.email,
      scopes: ["fleet:read"],
    });
    const me = await call<{ scopes: string[] }>("GET", "/v1/users/me", { token: minted.body.key });
    expect(me.body.scopes).toEqual(["fleet:read"]);
  });

  it("expires at expires_at: then 401 UZ-APIKEY-007, while the list shows the expiry", async () => {
    const tenant = await seedTenant();
    const expiresAt = Date.now() + 1500;
    const minted = await call<Minted>("POST", "/v1/api-keys", {
      token: tenant.apiKey,
      body: { key_name: "short", expires_at: expiresAt },
    });
    expect(minted.status).toBe(201);
    expect(minted.body.expires_at).toBe(expiresAt);
    const before = await call("GET", "/v1/users/me", { token: minted.body.key });
    if (Date.now() < expiresAt) expect(before.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, expiresAt - Date.now()) + 50));
    for (let i = 0; i < 2; i++) {
      const after = await call("GET", "/v1/users/me", { token: minted.body.key });
      expect(after.status).toBe(401);
      expect(after.headers.get("content-type")).toContain("application/problem+json");
      expect(after.body.error_code).toBe("UZ-APIKEY-007");
    }
    const list = await call<Page>("GET", "/v1/api-keys", { token: tenant.apiKey });
    expect(list.body.items.find((item) => item.id === minted.body.id)).toMatchObject({
      expires_at: expiresAt,
      active: true,
    });
  });

  it("refuses hostile scopes and expiries with 400, minting nothing", async () => {
    const tenant = await seedTenant();
    const now = Date.now();
    const bodies: unknown[] = [
      { key_name: "x", scopes: ["fleet:read\u0000"] },
      { key_name: "x", scopes: ["\ud800"] },
      { key_name: "x", scopes: [] },
      { key_name: "x", scopes: null },
      { key_name: "x", scopes: "fleet:read" },
      { key_name: "x", scopes: { a: 1 } },
      { key_name: "x", scopes: Array.from({ length: 1000 }, () => "fleet:read") },
      { key_name: "x", scopes: ["runner:*"] },
      { key_name: "x", expires_at: now - 1000 },
      { key_name: "x", expires_at: now + 400 * 86_400_000 },
      { key_name: "x", expires_at: 1.5 },
      { key_name: "x", expires_at: "tomorrow" },
      { key_name: "x", expires_at: 1e300 },
      { key_name: "x", expires_at: -1 },
      { key_name: "x", expires_at: { at: 1 } },
    ];
    for (const body of bodies) {
      const answer = await call("POST", "/v1/api-keys", { token: tenant.apiKey, body });
      expect(answer.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(answer.body.error_code).toBe("UZ-REQ-001");
    }
    const list = await call<Page>("GET", "/v1/api-keys", { token: tenant.apiKey });
    expect(list.body.total).toBe(1);
  });
  // Refused at once on every instance after a revoke: two-instances.test.ts.
});
