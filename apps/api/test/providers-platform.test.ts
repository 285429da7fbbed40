import { eq, platformKeys, tenantProviders } from "@fleet/db";
import { describe, expect, it } from "vitest";
import { newId } from "../src/runtime/ids.ts";
import { call, operatorToken, seedMember, seedTenant, testApi } from "./harness.ts";
import { API_KEY, catalogueRow, setProvider } from "./provider-fixtures.ts";

async function deleteRow(uid: string) {
  return call("DELETE", `/v1/admin/models/${uid}`, { token: await operatorToken(["model:admin"]) });
}

/** A workspace holding the platform's key as the secret PUT /v1/admin/platform-keys reads. */
async function platformSource(provider: string, data: Record<string, unknown> = { api_key: API_KEY }) {
  const owner = await seedTenant("platform");
  const secret = await call("POST", `/v1/workspaces/${owner.workspaceId}/secrets`, {
    token: owner.apiKey,
    body: { name: `${provider.toUpperCase()}_API_KEY`, kind: "provider_api_key", data },
  });
  expect(secret.status).toBe(201);
  return owner;
}

async function setPlatformKey(body: Record<string, unknown>) {
  return call("PUT", "/v1/admin/platform-keys", {
    token: await operatorToken(["platform-key:write"]),
    body,
  });
}

describe("the platform default", () => {
  // This file alone writes the platform default, and its tests run in order.
  it("refuses provider platform until one is configured (009), then uses its provider's models", async () => {
    const api = await testApi();
    await api.database.db.delete(platformKeys);
    const tenant = await seedTenant();
    const anthropic = await catalogueRow("anthropic");
    const none = await setProvider(tenant, { provider: "platform", model: anthropic.model_id });
    expect(none.status).toBe(409);
    expect(none.body.error_code).toBe("UZ-PROVIDER-009");

    const source = await platformSource("anthropic");
    const set = await setPlatformKey({
      provider: "anthropic",
      source_workspace_id: source.workspaceId,
      model: anthropic.model_id,
    });
    expect(set.status, set.text).toBe(200);
    expect(set.body).toMatchObject({
      provider: "anthropic",
      source_workspace_id: source.workspaceId,
      secret_name: "ANTHROPIC_API_KEY",
      model: anthropic.model_id,
      base_url: null,
    });
    expect(set.text).not.toContain(API_KEY);

    const platform = await setProvider(tenant, { provider: "platform", model: anthropic.model_id });
    expect(platform.status, platform.text).toBe(200);
    expect(platform.body).toMatchObject({
      provider: "platform",
      model: anthropic.model_id,
      has_api_key: false,
    });
    const openai = await catalogueRow("openai");
    const otherProvider = await setProvider(tenant, { provider: "platform", model: openai.model_id });
    expect(otherProvider.body.error_code).toBe("UZ-PROVIDER-004");
    const keyed = await setProvider(tenant, {
      provider: "platform",
      api_key: API_KEY,
      model: anthropic.model_id,
    });
    expect(keyed.status).toBe(400);
    expect(keyed.text).not.toContain(API_KEY);
    const based = await setProvider(tenant, {
      provider: "platform",
      model: anthropic.model_id,
      base_url: "https://8.8.8.8/",
    });
    expect(based.body.error_code).toBe("UZ-PROVIDER-005");
  });

  it("returns a tenant to the platform default on DELETE, refused (009) while there is none", async () => {
    const api = await testApi();
    await api.database.db.delete(platformKeys);
    const tenant = await seedTenant();
    const row = await catalogueRow("anthropic");
    expect(
      (await setProvider(tenant, { provider: "anthropic", api_key: API_KEY, model: row.model_id })).status,
    ).toBe(200);
    const path = "/v1/tenants/me/provider";
    const none = await call("DELETE", path, { token: tenant.apiKey });
    expect(none.status).toBe(409);
    expect(none.body).toMatchObject({ error_code: "UZ-PROVIDER-009", current_state: "no_platform_default" });
    expect((await call("GET", path, { token: tenant.apiKey })).body).toMatchObject({ provider: "anthropic" });

    const source = await platformSource("anthropic");
    const platform = { provider: "anthropic", source_workspace_id: source.workspaceId, model: row.model_id };
    expect((await setPlatformKey(platform)).status).toBe(200);
    const unscoped = await seedMember(tenant, ["secret:write", "fleet:admin"]);
    expect((await call("DELETE", path, { token: unscoped.token })).status).toBe(403);
    const deleted = await call("DELETE", path, { token: tenant.apiKey });
    expect(deleted.status, deleted.text).toBe(204);
    expect(deleted.text).toBe("");
    expect((await call("GET", path, { token: tenant.apiKey })).body.error_code).toBe("UZ-PROVIDER-003");
    // The sealed key went with the row.
    const stored = await api.database.db
      .select()
      .from(tenantProviders)
      .where(eq(tenantProviders.tenantId, tenant.tenantId));
    expect(stored).toEqual([]);
    const again = await call("DELETE", path, { token: tenant.apiKey });
    expect(again.status).toBe(404);
    expect(again.body.error_code).toBe("UZ-PROVIDER-003");
  });

  it("refuses a missing workspace, a missing or generic secret, an unpriced model and a bad base_url", async () => {
    const anthropic = await catalogueRow("anthropic");
    const custom = await catalogueRow("openai_compatible");
    const noWorkspace = await setPlatformKey({
      provider: "anthropic",
      source_workspace_id: newId(),
      model: anthropic.model_id,
    });
    expect(noWorkspace.status).toBe(404);
    expect(noWorkspace.body.error_code).toBe("UZ-WORKSPACE-002");

    const empty = await seedTenant("platform");
    const noSecret = await setPlatformKey({
      provider: "anthropic",
      source_workspace_id: empty.workspaceId,
      model: anthropic.model_id,
    });
    expect(noSecret.status).toBe(404);
    expect(noSecret.body).toMatchObject({
      error_code: "UZ-VAULT-003",
      missing_secrets: ["ANTHROPIC_API_KEY"],
    });
    await call("POST", `/v1/workspaces/${empty.workspaceId}/secrets`, {
      token: empty.apiKey,
      body: { name: "ANTHROPIC_API_KEY", data: { api_key: API_KEY } },
    });
    const generic = await setPlatformKey({
      provider: "anthropic",
      source_workspace_id: empty.workspaceId,
      model: anthropic.model_id,
    });
    expect(generic.body.error_code).toBe("UZ-VAULT-003");

    const shapeless = await platformSource("anthropic", { token: API_KEY });
    const noApiKey = await setPlatformKey({
      provider: "anthropic",
      source_workspace_id: shapeless.workspaceId,
      model: anthropic.model_id,
    });
    expect(noApiKey.status).toBe(400);
    expect(noApiKey.body.error_code).toBe("UZ-VAULT-001");

    const source = await platformSource("anthropic");
    const unpriced = await setPlatformKey({
      provider: "anthropic",
      source_workspace_id: source.workspaceId,
      model: custom.model_id,
    });
    expect(unpriced.body.error_code).toBe("UZ-PROVIDER-004");
    const named = await setPlatformKey({
      provider: "anthropic",
      source_workspace_id: source.workspaceId,
      model: anthropic.model_id,
      base_url: "https://8.8.8.8/",
    });
    expect(named.body.error_code).toBe("UZ-PROVIDER-005");
    const customSource = await platformSource("openai_compatible");
    const local = await setPlatformKey({
      provider: "openai_compatible",
      source_workspace_id: customSource.workspaceId,
      model: custom.model_id,
      base_url: "https://169.254.169.254/",
    });
    expect(local.body.error_code).toBe("UZ-PROVIDER-005");
    const unknown = await setPlatformKey({
      provider: "platform",
      source_workspace_id: source.workspaceId,
      model: "x",
    });
    expect(unknown.body.error_code).toBe("UZ-PROVIDER-001");
    for (const response of [noSecret, generic, noApiKey, unpriced, named, local]) {
      expect(response.status).toBeGreaterThanOrEqual(400);
      expect(response.text).not.toContain(API_KEY);
    }
    const scoped = await call("PUT", "/v1/admin/platform-keys", {
      token: await operatorToken(["model:admin", "platform-key:read"]),
      body: { provider: "anthropic", source_workspace_id: source.workspaceId, model: anthropic.model_id },
    });
    expect(scoped.status).toBe(403);
  });

  it("keeps a default's model in the catalogue (409 UZ-PROVIDER-007) until the default moves", async () => {
    const platformModel = await catalogueRow("anthropic");
    const tenantModel = await catalogueRow("openai");
    const spare = await catalogueRow("anthropic");
    const source = await platformSource("anthropic");
    expect(
      (
        await setPlatformKey({
          provider: "anthropic",
          source_workspace_id: source.workspaceId,
          model: platformModel.model_id,
        })
      ).status,
    ).toBe(200);
    const tenant = await seedTenant();
    expect(
      (await setProvider(tenant, { provider: "openai", api_key: API_KEY, model: tenantModel.model_id }))
        .status,
    ).toBe(200);

    for (const row of [platformModel, tenantModel]) {
      const refused = await deleteRow(row.uid);
      expect(refused.status).toBe(409);
      expect(refused.body).toMatchObject({ error_code: "UZ-PROVIDER-007", current_state: "active_default" });
    }
    await setPlatformKey({
      provider: "anthropic",
      source_workspace_id: source.workspaceId,
      model: spare.model_id,
    });
    await setProvider(tenant, { provider: "anthropic", api_key: API_KEY, model: spare.model_id });
    expect((await deleteRow(platformModel.uid)).status).toBe(204);
    expect((await deleteRow(tenantModel.uid)).status).toBe(204);
  });
});
