import type { OutputOf, ProblemBody } from "@fleet/contracts";
import type { createApiKey } from "@fleet/contracts/api-keys/create-api-key";
import type { listApiKeys } from "@fleet/contracts/api-keys/list-api-keys";
import type { rotateApiKey } from "@fleet/contracts/api-keys/rotate-api-key";
import type { listTenantAudit } from "@fleet/contracts/audit/list-tenant-audit";
import { describe, expect, it } from "vitest";
import { call, callAt, databaseKind, seedMember, seedTenant, sleep, type Tenant } from "./harness.ts";
import { useSecondInstance } from "./instances.ts";

type Minted = OutputOf<typeof createApiKey>;
type Rotated = OutputOf<typeof rotateApiKey> & Partial<ProblemBody>;

async function mint(tenant: Tenant, body: Record<string, unknown> = {}): Promise<Minted> {
  const minted = await call<Minted>("POST", "/v1/api-keys", {
    token: tenant.apiKey,
    body: { key_name: "rotated", ...body },
  });
  expect(minted.status, minted.text).toBe(201);
  return minted.body;
}

function rotate(token: string, id: string, body?: unknown) {
  return call<Rotated>("POST", `/v1/api-keys/${id}/rotate`, { token, body });
}

async function status(token: string): Promise<number> {
  return (await call("GET", "/v1/users/me", { token })).status;
}

describe("rotating a tenant API key", () => {
  it("gives a new secret shown once, keeps the rest, and ends the old one at once by default", async () => {
    const tenant = await seedTenant();
    const expiry = Date.now() + 86_400_000;
    const key = await mint(tenant, { scopes: ["fleet:read"], rate_limit: 77, expires_at: expiry });
    expect(await status(key.key)).toBe(200); // cached now

    const rotated = await rotate(tenant.apiKey, key.id);
    expect(rotated.status, rotated.text).toBe(200);
    expect(rotated.headers.get("cache-control")).toBe("no-store");
    expect(rotated.body).toMatchObject({
      id: key.id,
      key_name: "rotated",
      scopes: ["fleet:read"],
      rate_limit: 77,
      expires_at: expiry,
      previous_key_expires_at: null,
    });
    expect(rotated.body.key).toMatch(/^agt_t[A-Za-z0-9_-]{43}$/);
    expect(rotated.body.key).not.toBe(key.key);
    expect(rotated.body.key.startsWith(rotated.body.key_prefix)).toBe(true);

    const old = await call("GET", "/v1/users/me", { token: key.key });
    expect(old.status).toBe(401);
    expect(old.body.error_code).toBe("UZ-AUTH-002");
    expect(await status(rotated.body.key)).toBe(200);

    const list = await call<OutputOf<typeof listApiKeys>>("GET", "/v1/api-keys", { token: tenant.apiKey });
    const row = list.body.items.find((item) => item.id === key.id);
    expect(row).toMatchObject({ key_prefix: rotated.body.key_prefix, active: true, expires_at: expiry });
    expect(list.text).not.toContain(rotated.body.key);

    const audit = await call<OutputOf<typeof listTenantAudit>>("GET", "/v1/tenants/me/audit?limit=50", {
      token: tenant.apiKey,
    });
    const rows = audit.body.items.filter((item) => item.action === "api_key.rotate");
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      target: `api_key:${key.id}`,
      request_id: rotated.headers.get("x-request-id"),
      details: { key_name: "rotated", grace_period_seconds: 0, previous_key_expires_at: null },
    });
    expect(audit.text).not.toContain(rotated.body.key);
    expect(audit.text).not.toContain(key.key);
  });

  it("keeps the old secret for the grace period chosen, one previous secret at a time", async () => {
    const tenant = await seedTenant();
    const key = await mint(tenant);
    const before = Date.now();
    const first = await rotate(tenant.apiKey, key.id, { grace_period_seconds: 3600 });
    expect(first.status).toBe(200);
    expect(first.body.previous_key_expires_at).toBeGreaterThanOrEqual(before + 3_600_000);
    expect(await status(key.key)).toBe(200);
    expect(await status(first.body.key)).toBe(200);

    // A second rotation keeps the first rotation's secret in grace, and ends the original.
    const second = await rotate(tenant.apiKey, key.id, { grace_period_seconds: 1 });
    expect(second.status).toBe(200);
    expect(await status(key.key)).toBe(401);
    expect(await status(first.body.key)).toBe(200);
    expect(await status(second.body.key)).toBe(200);
    await sleep(1_100);
    expect(await status(first.body.key)).toBe(401);
    expect(await status(second.body.key)).toBe(200);
  });

  it("revoking the key ends both secrets", async () => {
    const tenant = await seedTenant();
    const key = await mint(tenant);
    const rotated = await rotate(tenant.apiKey, key.id, { grace_period_seconds: 3600 });
    expect(await status(key.key)).toBe(200);
    expect(await status(rotated.body.key)).toBe(200);
    const revoked = await call("PATCH", `/v1/api-keys/${key.id}`, {
      token: tenant.apiKey,
      body: { active: false },
    });
    expect(revoked.status).toBe(200);
    for (const token of [key.key, rotated.body.key]) {
      const refused = await call("GET", "/v1/users/me", { token });
      expect(refused.status).toBe(401);
      expect(refused.body.error_code).toBe("UZ-APIKEY-004");
    }
    const again = await rotate(tenant.apiKey, key.id);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ error_code: "UZ-APIKEY-006", current_state: "revoked" });
  });

  it("a key rotating a key is bounded by its own expiry and quota", async () => {
    const tenant = await seedTenant();
    const admin = await mint(tenant, { scopes: ["apikey:write"], expires_at: Date.now() + 86_400_000 });
    const forever = await mint(tenant);
    const refused = await rotate(admin.key, forever.id);
    expect(refused.status).toBe(403);
    expect(refused.body.error_code).toBe("UZ-APIKEY-009");
    expect(await status(forever.key)).toBe(200); // unchanged
    const itself = await rotate(admin.key, admin.id);
    expect(itself.status).toBe(200);
    expect(await status(itself.body.key)).toBe(200);
  });

  it("refuses bad input (an empty key, grace beyond 24 h) with UZ-REQ-001 and changes nothing", async () => {
    const tenant = await seedTenant();
    const key = await mint(tenant);
    for (const [path, body] of [
      [`/v1/api-keys/${key.id}/rotate`, { grace_period_seconds: 86_401 }],
      [`/v1/api-keys/${key.id}/rotate`, { grace_period_seconds: -1 }],
      [`/v1/api-keys/${key.id}/rotate`, { grace_period_seconds: 1.5 }],
      [`/v1/api-keys/${key.id}/rotate`, { key: "" }],
      ["/v1/api-keys/%20/rotate", {}],
      [`/v1/api-keys/${key.id.slice(0, 8)}/rotate`, {}],
    ] as const) {
      const response = await call("POST", path, { token: tenant.apiKey, body });
      expect(response.status, `${path} ${JSON.stringify(body)}`).toBe(400);
      expect(response.body.error_code).toBe("UZ-REQ-001");
      expect(response.headers.get("content-type")).toContain("application/problem+json");
    }
    const limit = await rotate(tenant.apiKey, key.id, { grace_period_seconds: 86_400 });
    expect(limit.status).toBe(200);
    expect(await status(key.key)).toBe(200);
    const unknown = await rotate(tenant.apiKey, "01a2000a-0000-7000-8000-000000000000");
    expect(unknown.status).toBe(404);
    expect(unknown.body.error_code).toBe("UZ-APIKEY-001");
    const reader = await seedMember(tenant, ["apikey:read"]);
    const scope = await rotate(reader.token, key.id);
    expect(scope.status).toBe(403);
    expect(scope.body.error_code).toBe("UZ-AUTH-022");
  });
});

describe.runIf(databaseKind === "postgres")("rotation across two instances", () => {
  const instances = useSecondInstance();

  it("ends the old secret on the other instance at once (grace 0), and revocation ends both", async () => {
    const { first, second } = instances();
    const tenant = await seedTenant();
    for (let round = 0; round < 5; round++) {
      const key = await mint(tenant);
      expect((await callAt(second.baseUrl, "GET", "/v1/users/me", { token: key.key })).status).toBe(200);
      const rotated = await callAt<Rotated>(first.baseUrl, "POST", `/v1/api-keys/${key.id}/rotate`, {
        token: tenant.apiKey,
        body: {},
      });
      expect(rotated.status, rotated.text).toBe(200);
      expect((await callAt(second.baseUrl, "GET", "/v1/users/me", { token: key.key })).status).toBe(401);
      const graced = await callAt<Rotated>(first.baseUrl, "POST", `/v1/api-keys/${key.id}/rotate`, {
        token: tenant.apiKey,
        body: { grace_period_seconds: 600 },
      });
      for (const token of [rotated.body.key, graced.body.key]) {
        expect((await callAt(second.baseUrl, "GET", "/v1/users/me", { token })).status).toBe(200);
      }
      await callAt(first.baseUrl, "PATCH", `/v1/api-keys/${key.id}`, {
        token: tenant.apiKey,
        body: { active: false },
      });
      for (const token of [rotated.body.key, graced.body.key]) {
        const refused = await callAt(second.baseUrl, "GET", "/v1/users/me", { token });
        expect(refused.body.error_code).toBe("UZ-APIKEY-004");
      }
    }
  });
});
