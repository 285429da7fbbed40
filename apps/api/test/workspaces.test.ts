import { describe, expect, it } from "vitest";
import { call, operatorToken, seedMember, seedTenant, sessionFor, signInLink } from "./harness.ts";

describe("the calling person", () => {
  it("answers users/me for each credential class, with the spec's fields", async () => {
    const tenant = await seedTenant("Acme");
    const byKey = await call("GET", "/v1/users/me", { token: tenant.apiKey });
    expect(byKey.status).toBe(200);
    expect(Object.keys(byKey.body).sort()).toEqual([
      "credential",
      "email",
      "scopes",
      "tenant_id",
      "tenant_name",
      "user_id",
    ]);
    expect(byKey.body).toMatchObject({
      credential: "tenant_api_key",
      email: tenant.email,
      tenant_id: tenant.tenantId,
      user_id: tenant.userId,
    });
    expect(byKey.body.tenant_name).toMatch(/^Acme/);
    expect(byKey.body.scopes).toContain("apikey:admin");

    const bySession = await call("GET", "/v1/users/me", { token: await sessionFor(tenant, "session") });
    expect(bySession.body.credential).toBe("session_token");
    const byCli = await call("GET", "/v1/users/me", { token: await sessionFor(tenant, "cli") });
    expect(byCli.body.credential).toBe("cli_credential");
  });

  it("needs no scope: a member with none still reads themself, with an empty scopes array", async () => {
    const tenant = await seedTenant();
    const member = await seedMember(tenant, []);
    const me = await call("GET", "/v1/users/me", { token: member.token });
    expect(me.status).toBe(200);
    expect(me.body.scopes).toEqual([]);
  });

  it("refuses an operator token, a tampered session and an expired one", async () => {
    const tenant = await seedTenant();
    const operator = await call("GET", "/v1/users/me", { token: await operatorToken(["runner:write"]) });
    expect(operator.status).toBe(401);
    const session = await sessionFor(tenant);
    const [header, payload, signature] = session.split(".");
    const tampered = `${header}.${payload}.${signature!.slice(0, -2)}AA`;
    expect((await call("GET", "/v1/users/me", { token: tampered })).body.error_code).toBe("UZ-AUTH-002");
    const claims = JSON.parse(Buffer.from(payload!, "base64url").toString());
    const forged = `${header}.${Buffer.from(JSON.stringify({ ...claims, tenant_id: "01a20000-0000-7000-8000-000000000000" })).toString("base64url")}.${signature}`;
    expect((await call("GET", "/v1/users/me", { token: forged })).status).toBe(401);
  });

  it("exchanges a sign-in link once for a console session", async () => {
    const tenant = await seedTenant();
    const token = await signInLink(tenant);
    const first = await call<{ session_token: string; expires_at: number }>(
      "POST",
      "/v1/auth/sign-in-links/exchange",
      { body: { token } },
    );
    expect(first.status).toBe(200);
    expect(first.headers.get("cache-control")).toBe("no-store");
    expect(first.body.expires_at).toBeGreaterThan(Date.now());
    const me = await call("GET", "/v1/users/me", { token: first.body.session_token });
    expect(me.body).toMatchObject({ credential: "session_token", user_id: tenant.userId });
    const second = await call("POST", "/v1/auth/sign-in-links/exchange", { body: { token } });
    expect(second.status).toBe(401);
    expect(second.body.error_code).toBe("UZ-AUTH-010");
  });

  it("spends a sign-in link exactly once under concurrent exchanges", async () => {
    const tenant = await seedTenant();
    const token = await signInLink(tenant);
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => call("POST", "/v1/auth/sign-in-links/exchange", { body: { token } })),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 401)).toHaveLength(7);
  });

  it("serves the console over /trpc with the session cookie, and refuses cookie mutations without the CSRF header", async () => {
    const tenant = await seedTenant();
    const cookie = `fleet_session=${await sessionFor(tenant)}`;
    const me = await call<{ result: { data: { email: string } } }>("GET", "/trpc/users.getMe", {
      headers: { cookie },
    });
    expect(me.status).toBe(200);
    expect(me.body.result.data.email).toBe(tenant.email);
    const forged = await call<{ error: { data: { problem: { error_code: string } } } }>(
      "POST",
      "/trpc/apiKeys.create",
      {
        headers: { cookie },
        body: { key_name: "from-another-site" },
      },
    );
    expect(forged.status).toBe(403);
    expect(forged.body.error.data.problem.error_code).toBe("UZ-AUTH-011");
    const allowed = await call("POST", "/trpc/apiKeys.create", {
      headers: { cookie, "x-fleet-csrf": "1" },
      body: { key_name: "console" },
    });
    expect(allowed.status).toBe(200);
    // The REST surface reads bearer credentials only.
    expect((await call("GET", "/v1/users/me", { headers: { cookie } })).status).toBe(401);
  });
});

describe("workspaces", () => {
  it("creates workspaces with trimmed unique names and lists them newest first by cursor", async () => {
    const tenant = await seedTenant();
    const created = await call("POST", "/v1/workspaces", {
      token: tenant.apiKey,
      body: { name: "  Research  " },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: "Research",
      tenant_id: tenant.tenantId,
      request_id: created.headers.get("x-request-id"),
    });
    const duplicate = await call("POST", "/v1/workspaces", {
      token: tenant.apiKey,
      body: { name: "Research" },
    });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body).toMatchObject({ error_code: "UZ-WORKSPACE-001", current_state: "name_exists" });
    for (const bad of ["", "   ", "a".repeat(129), "bad\u0007name"]) {
      expect(
        (await call("POST", "/v1/workspaces", { token: tenant.apiKey, body: { name: bad } })).status,
      ).toBe(400);
    }
    const first = await call<{
      items: { name: string }[];
      total: number;
      next_cursor: string;
      tenant_id: string;
    }>("GET", "/v1/tenants/me/workspaces?limit=1", { token: tenant.apiKey });
    expect(first.body).toMatchObject({ total: 2, tenant_id: tenant.tenantId });
    expect(first.body.items.map((w) => w.name)).toEqual(["Research"]);
    const second = await call<{ items: { name: string }[]; next_cursor: string | null }>(
      "GET",
      `/v1/tenants/me/workspaces?limit=1&starting_after=${first.body.next_cursor}`,
      { token: tenant.apiKey },
    );
    expect(second.body.items.map((w) => w.name)).toEqual(["default"]);
    expect(second.body.next_cursor).toBeNull();
    const byName = await call<{ items: unknown[] }>("GET", "/v1/tenants/me/workspaces?name=default", {
      token: tenant.apiKey,
    });
    expect(byName.body.items).toHaveLength(1);
  });

  it("gives exactly one 201 to concurrent creates of one name", async () => {
    const tenant = await seedTenant();
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        call("POST", "/v1/workspaces", { token: tenant.apiKey, body: { name: "Raced" } }),
      ),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(9);
  });

  it("never shows one tenant's workspaces to another", async () => {
    const mine = await seedTenant();
    const theirs = await seedTenant();
    await call("POST", "/v1/workspaces", { token: theirs.apiKey, body: { name: "Secret project" } });
    const list = await call("GET", "/v1/tenants/me/workspaces", { token: mine.apiKey });
    expect(JSON.stringify(list.body)).not.toContain("Secret project");
  });
});
