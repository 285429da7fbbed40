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
    expect(Object.keys(minted.body).sort()).toEqual(["created_at", "id", "key", "key_name", "rate_limit"]);
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
    expect(row).toMatchObject({ key_name: "deploy-bot", active: true, revoked_at: null });
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
      body: { key_name: "a", scopes: ["x"] },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.detail).toContain("scopes");
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
  // Refused at once on every instance after a revoke: two-instances.test.ts.
});
