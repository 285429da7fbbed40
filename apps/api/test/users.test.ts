import { describe, expect, it } from "vitest";
import { call, operatorToken, seedMember, seedTenant, sessionFor } from "./harness.ts";

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
    // The signature's first character changed: its first six bits always differ (replacing the last two
    // characters by "AA" left one signature in 1,024 unchanged, and CI met one).
    const tampered = `${header}.${payload}.${signature![0] === "A" ? "B" : "A"}${signature!.slice(1)}`;
    expect((await call("GET", "/v1/users/me", { token: tampered })).body.error_code).toBe("UZ-AUTH-002");
    const claims = JSON.parse(Buffer.from(payload!, "base64url").toString());
    const forged = `${header}.${Buffer.from(JSON.stringify({ ...claims, tenant_id: "01a20000-0000-7000-8000-000000000000" })).toString("base64url")}.${signature}`;
    expect((await call("GET", "/v1/users/me", { token: forged })).status).toBe(401);
  });
});
