import { eq, tenantProviders } from "@fleet/db";
import { describe, expect, it } from "vitest";
import type { Resolve } from "../src/runtime/public-address.ts";
import { replaceTenantProvider } from "../src/services/providers/replace-tenant-provider.ts";
import { openTenantKey } from "../src/services/providers/tenant-key.ts";
import { call, seedMember, seedTenant, type Tenant, testApi } from "./harness.ts";
import { API_KEY, catalogueRow, setProvider } from "./provider-fixtures.ts";

describe("the tenant's provider", () => {
  it("stores a named provider with its key sealed, and reads it back without the key", async () => {
    const tenant = await seedTenant();
    const missing = await call("GET", "/v1/tenants/me/provider", { token: tenant.apiKey });
    expect(missing.status).toBe(404);
    expect(missing.body.error_code).toBe("UZ-PROVIDER-003");

    const row = await catalogueRow("anthropic");
    const set = await setProvider(tenant, { provider: "anthropic", api_key: API_KEY, model: row.model_id });
    expect(set.status, set.text).toBe(200);
    expect(set.body).toMatchObject({
      provider: "anthropic",
      model: row.model_id,
      base_url: null,
      has_api_key: true,
    });
    expect(typeof set.body.updated_at).toBe("number");
    const read = await call("GET", "/v1/tenants/me/provider", { token: tenant.apiKey });
    expect(read.status).toBe(200);
    expect(read.body).toEqual(set.body);
    for (const response of [set, read]) expect(response.text).not.toContain(API_KEY);

    const api = await testApi();
    const [stored] = await api.database.db
      .select()
      .from(tenantProviders)
      .where(eq(tenantProviders.tenantId, tenant.tenantId));
    expect(JSON.stringify(stored)).not.toContain(API_KEY);
    expect(
      openTenantKey(api.app.services, tenant.tenantId, {
        wrappedKey: stored!.wrappedKey!,
        ciphertext: stored!.ciphertext!,
      }),
    ).toBe(API_KEY);
  });

  it("keeps the held key only while provider and base_url are unchanged", async () => {
    const tenant = await seedTenant();
    const api = await testApi();
    const first = await catalogueRow("anthropic");
    const second = await catalogueRow("anthropic");
    expect(
      (await setProvider(tenant, { provider: "anthropic", api_key: API_KEY, model: first.model_id })).status,
    ).toBe(200);
    const kept = await setProvider(tenant, { provider: "anthropic", model: second.model_id });
    expect(kept.status).toBe(200);
    expect(kept.body).toMatchObject({ model: second.model_id, has_api_key: true });
    const [stored] = await api.database.db
      .select()
      .from(tenantProviders)
      .where(eq(tenantProviders.tenantId, tenant.tenantId));
    expect(
      openTenantKey(api.app.services, tenant.tenantId, {
        wrappedKey: stored!.wrappedKey!,
        ciphertext: stored!.ciphertext!,
      }),
    ).toBe(API_KEY);

    const openai = await catalogueRow("openai");
    const switched = await setProvider(tenant, { provider: "openai", model: openai.model_id });
    expect(switched.status).toBe(400);
    expect(switched.body.error_code).toBe("UZ-PROVIDER-002");

    const custom = await catalogueRow("openai_compatible");
    const withKey = await setProvider(tenant, {
      provider: "openai_compatible",
      api_key: API_KEY,
      model: custom.model_id,
      base_url: "https://8.8.8.8/v1",
    });
    expect(withKey.body).toMatchObject({ base_url: "https://8.8.8.8/v1", has_api_key: true });
    const moved = await setProvider(tenant, {
      provider: "openai_compatible",
      model: custom.model_id,
      base_url: "https://1.1.1.1/v1",
    });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ base_url: "https://1.1.1.1/v1", has_api_key: false });
  });

  it("refuses base_url unless https and public, and on named providers (UZ-PROVIDER-005)", async () => {
    const tenant = await seedTenant();
    const custom = await catalogueRow("openai_compatible");
    const named = await catalogueRow("openai");
    const refused = [
      { provider: "openai", api_key: API_KEY, model: named.model_id, base_url: "https://8.8.8.8/" },
      { provider: "openai_compatible", model: custom.model_id },
      ...[
        "http://8.8.8.8/v1",
        "http://2130706433/",
        "https://2130706433/",
        "https://0177.0.0.1/",
        "https://0x7f.1/",
        "https://127.1/",
        "https://127.0.0.1:8443/v1",
        "https://localhost/v1",
        "https://10.0.0.8/",
        "https://172.16.4.4/",
        "https://192.168.1.1/",
        "https://169.254.169.254/latest/meta-data/",
        "https://100.64.0.1/",
        "https://0.0.0.0/",
        "https://[::1]/",
        "https://[::]/",
        "https://[fe80::1]/",
        "https://[fd00::1]/",
        "https://[::ffff:127.0.0.1]/",
        "https://[::ffff:169.254.169.254]/",
        "https://224.0.0.1/",
        "https://user:pass@8.8.8.8/",
        "not a url",
      ].map((base_url) => ({
        provider: "openai_compatible",
        api_key: API_KEY,
        model: custom.model_id,
        base_url,
      })),
    ];
    for (const body of refused) {
      const response = await setProvider(tenant, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.error_code, JSON.stringify(body)).toBe("UZ-PROVIDER-005");
      expect(response.text).not.toContain(API_KEY);
    }
    const missing = await call("GET", "/v1/tenants/me/provider", { token: tenant.apiKey });
    expect(missing.status).toBe(404);

    const accepted = await setProvider(tenant, {
      provider: "openai_compatible",
      model: custom.model_id,
      base_url: "https://[2606:4700:4700::1111]/v1",
    });
    expect(accepted.status, accepted.text).toBe(200);
    expect(accepted.body).toMatchObject({
      base_url: "https://[2606:4700:4700::1111]/v1",
      has_api_key: false,
    });
  });

  it("checks a named host with the injected resolver: every address must be public", async () => {
    const tenant = await seedTenant();
    const api = await testApi();
    const custom = await catalogueRow("openai_compatible");
    const zone: Record<string, string[]> = {
      "llm.example.com": ["93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c"],
      "rebind.example.com": ["93.184.215.14", "10.0.0.5"],
      "metadata.example.com": ["169.254.169.254"],
      "mapped.example.com": ["::ffff:127.0.0.1"],
      "empty.example.com": [],
    };
    const resolve: Resolve = async (host) => {
      const found = zone[host];
      if (found === undefined) throw new Error("ENOTFOUND");
      return found;
    };
    const input = (host: string) => ({
      provider: "openai_compatible",
      model: custom.model_id,
      base_url: `https://${host}/v1`,
    });
    const actor = { principal: `user:${tenant.userId}`, requestId: "direct-call" };
    const set = await replaceTenantProvider(
      api.app.services,
      actor,
      tenant.tenantId,
      input("LLM.example.com."),
      resolve,
    );
    expect(set).toMatchObject({ base_url: "https://llm.example.com./v1" });
    for (const host of [
      "rebind.example.com",
      "metadata.example.com",
      "mapped.example.com",
      "empty.example.com",
      "nowhere.example.com",
    ]) {
      await expect(
        replaceTenantProvider(api.app.services, actor, tenant.tenantId, input(host), resolve),
        host,
      ).rejects.toMatchObject({ code: "UZ-PROVIDER-005" });
    }
  });

  it("refuses unknown providers (001) and models that are not priced rows of the provider (004)", async () => {
    const tenant = await seedTenant();
    const openai = await catalogueRow("openai");
    const unknown = await setProvider(tenant, { provider: "acme", api_key: API_KEY, model: openai.model_id });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error_code).toBe("UZ-PROVIDER-001");
    for (const model of ["not-in-the-catalogue", openai.model_id]) {
      const refused = await setProvider(tenant, { provider: "anthropic", api_key: API_KEY, model });
      expect(refused.status).toBe(400);
      expect(refused.body.error_code).toBe("UZ-PROVIDER-004");
      expect(refused.text).not.toContain(API_KEY);
    }
    const shape = await setProvider(tenant, { provider: "anthropic", api_key: "has a space", model: "x" });
    expect(shape.status).toBe(400);
    expect(shape.body.error_code).toBe("UZ-REQ-001");
  });

  it("binds the sealed key to its tenant", async () => {
    const api = await testApi();
    const owner = await seedTenant();
    const other = await seedTenant();
    const row = await catalogueRow("anthropic");
    await setProvider(owner, { provider: "anthropic", api_key: API_KEY, model: row.model_id });
    await setProvider(other, { provider: "anthropic", api_key: "sk-other", model: row.model_id });
    const [stored] = await api.database.db
      .select()
      .from(tenantProviders)
      .where(eq(tenantProviders.tenantId, owner.tenantId));
    const sealed = { wrappedKey: stored!.wrappedKey!, ciphertext: stored!.ciphertext! };
    expect(() => openTenantKey(api.app.services, other.tenantId, sealed)).toThrow();
    // A workspace secret's binding cannot open it either: the owner's workspace, any name.
    expect(() => api.app.services.vault.open(owner.workspaceId, "provider_api_key", sealed)).toThrow();
  });

  it("needs workspace:admin", async () => {
    const tenant = await seedTenant();
    const row = await catalogueRow("anthropic");
    const reader = await seedMember(tenant, ["secret:write", "fleet:admin"]);
    const admin = await seedMember(tenant, ["workspace:admin"]);
    const body = { provider: "anthropic", api_key: API_KEY, model: row.model_id };
    const refused = await call("PUT", "/v1/tenants/me/provider", { token: reader.token, body });
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toContain("workspace:admin");
    expect((await call("PUT", "/v1/tenants/me/provider", { token: admin.token, body })).status).toBe(200);
    expect((await call("GET", "/v1/tenants/me/provider", { token: admin.token })).status).toBe(200);
  });
});

describe("the provider key in the log", () => {
  /** Each request's fate, taken with the key in it: stored, refused for its model, its base_url, an unknown
   * field, its size, a body cut short, or a caller without the scope. */
  const fates: [string, (tenant: Tenant, model: string) => Promise<unknown>][] = [
    ["stored", (tenant, model) => setProvider(tenant, { provider: "anthropic", api_key: API_KEY, model })],
    [
      "refused for an unpriced model",
      (tenant) => setProvider(tenant, { provider: "anthropic", api_key: API_KEY, model: "unpriced" }),
    ],
    [
      "refused for its base_url",
      (tenant, model) =>
        setProvider(tenant, {
          provider: "anthropic",
          api_key: API_KEY,
          model,
          base_url: "https://127.0.0.1/",
        }),
    ],
    [
      "refused for an unknown field",
      (tenant, model) =>
        setProvider(tenant, { provider: "anthropic", api_key: API_KEY, model, extra: API_KEY }),
    ],
    [
      "refused for its size",
      (tenant, model) =>
        setProvider(tenant, { provider: "anthropic", api_key: `${API_KEY} ${"x".repeat(5000)}`, model }),
    ],
    [
      "refused as a body cut short",
      (tenant) =>
        call("PUT", "/v1/tenants/me/provider", {
          token: tenant.apiKey,
          rawBody: `{"provider":"anthropic","api_key":"${API_KEY}"`,
          headers: { "content-type": "application/json" },
        }),
    ],
    [
      "refused for a caller without the scope",
      async (tenant, model) =>
        call("PUT", "/v1/tenants/me/provider", {
          token: (await seedMember(tenant, [])).token,
          body: { provider: "anthropic", api_key: API_KEY, model },
        }),
    ],
  ];

  // Each on a tenant whose provider already holds the key sealed, as the requests met it in one sequence.
  it.each(fates)("never appears when the request is %s", async (_fate, send) => {
    const tenant = await seedTenant();
    const row = await catalogueRow("anthropic");
    await setProvider(tenant, { provider: "anthropic", api_key: API_KEY, model: row.model_id });
    await send(tenant, row.model_id);
    const api = await testApi();
    expect(api.logs.join("\n")).not.toContain(API_KEY);
  });
});
