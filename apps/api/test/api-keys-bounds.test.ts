import type { OutputOf, ProblemBody } from "@fleet/contracts";
import type { createApiKey } from "@fleet/contracts/api-keys/create-api-key";
import type { listApiKeys } from "@fleet/contracts/api-keys/list-api-keys";
import { describe, expect, it } from "vitest";
import { installFleet } from "./fleet-fixtures.ts";
import { call, seedMember, seedTenant, type Tenant, useIsolatedApi } from "./harness.ts";

type Minted = OutputOf<typeof createApiKey>;
type Page = OutputOf<typeof listApiKeys>;

const MAX_KEYS = 6;
const DEFAULT_QUOTA = 1_000;

// Its own database: the cap and the default quota are the instance's configuration.
useIsolatedApi({ FLEET_MAX_API_KEYS: String(MAX_KEYS), FLEET_RATE_LIMIT_CREDENTIAL: String(DEFAULT_QUOTA) });

function mint(token: string, body: Record<string, unknown>) {
  return call<Minted & Partial<ProblemBody>>("POST", "/v1/api-keys", {
    token,
    body: { key_name: "k", ...body },
  });
}

async function liveKeys(tenant: Tenant): Promise<number> {
  const page = await call<Page>("GET", "/v1/api-keys?limit=100", { token: tenant.apiKey });
  return page.body.items.filter((item) => item.active).length;
}

describe("keys minted by a key", () => {
  it("expire no later than the key that mints them: absent takes its expiry, later is refused", async () => {
    const tenant = await seedTenant();
    const expiry = Date.now() + 7 * 86_400_000;
    const minter = await mint(tenant.apiKey, { expires_at: expiry });
    expect(minter.status).toBe(201);

    const inherits = await mint(minter.body.key, {});
    expect(inherits.status).toBe(201);
    expect(inherits.body.expires_at).toBe(expiry);
    const never = await mint(minter.body.key, { expires_at: null });
    expect(never.body.expires_at).toBe(expiry);

    const later = await mint(minter.body.key, { expires_at: expiry + 1 });
    expect(later.status).toBe(403);
    expect(later.body).toMatchObject({ error_code: "UZ-APIKEY-009" });
    expect(later.headers.get("content-type")).toContain("application/problem+json");

    const earlier = await mint(minter.body.key, { expires_at: expiry - 1 });
    expect(earlier.status).toBe(201);
    expect(earlier.body.expires_at).toBe(expiry - 1);
    // A grandchild is bounded by its own minter, the earlier one.
    const grandchild = await mint(earlier.body.key, { expires_at: expiry });
    expect(grandchild.status).toBe(403);
    expect(await liveKeys(tenant)).toBe(5);

    // A person's session is bounded by nothing but the lifetime limit.
    const session = await mint(tenant.apiKey, { expires_at: null });
    expect(session.body.expires_at).toBeNull();
  });

  it("have at most the minting key's quota: absent takes it, more is refused", async () => {
    const tenant = await seedTenant();
    const minter = await mint(tenant.apiKey, { rate_limit: 50 });
    expect(minter.body.rate_limit).toBe(50);

    const inherits = await mint(minter.body.key, {});
    expect(inherits.status).toBe(201);
    expect(inherits.body.rate_limit).toBe(50);
    const more = await mint(minter.body.key, { rate_limit: 51 });
    expect(more.status).toBe(403);
    expect(more.body.error_code).toBe("UZ-APIKEY-009");
    const less = await mint(minter.body.key, { rate_limit: 10 });
    expect(less.body.rate_limit).toBe(10);

    // A key on the default quota mints up to the default, not past it.
    const plain = await mint(tenant.apiKey, {});
    expect((await mint(plain.body.key, { rate_limit: DEFAULT_QUOTA })).status).toBe(201);
    const past = await mint(plain.body.key, { rate_limit: DEFAULT_QUOTA + 1 });
    expect(past.status).toBe(403);
    expect(past.body.error_code).toBe("UZ-APIKEY-009");
  });

  it("a quota above the instance default needs apikey:admin (403 UZ-AUTH-022)", async () => {
    const tenant = await seedTenant();
    const writer = await seedMember(tenant, ["apikey:write"]);
    const refused = await mint(writer.token, { rate_limit: DEFAULT_QUOTA + 1 });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ error_code: "UZ-AUTH-022" });
    expect(refused.body.detail).toContain("apikey:admin");
    expect((await mint(writer.token, { rate_limit: DEFAULT_QUOTA })).status).toBe(201);

    const admin = await seedMember(tenant, ["apikey:admin"]);
    const raised = await mint(admin.token, { rate_limit: DEFAULT_QUOTA * 5 });
    expect(raised.status).toBe(201);
    expect(raised.body.rate_limit).toBe(DEFAULT_QUOTA * 5);
    expect(await liveKeys(tenant)).toBe(3);
  });
});

describe("the cap on live keys per tenant", () => {
  it("refuses the key past FLEET_MAX_API_KEYS with 409 UZ-APIKEY-008; revoking one makes room", async () => {
    const tenant = await seedTenant();
    for (let i = 1; i < MAX_KEYS; i++) expect((await mint(tenant.apiKey, {})).status).toBe(201);
    const over = await mint(tenant.apiKey, {});
    expect(over.status).toBe(409);
    expect(over.body).toMatchObject({ error_code: "UZ-APIKEY-008", current_state: "at_limit" });
    expect(await liveKeys(tenant)).toBe(MAX_KEYS);

    const page = await call<Page>("GET", "/v1/api-keys?limit=1", { token: tenant.apiKey });
    const revoke = await call("PATCH", `/v1/api-keys/${page.body.items[0]!.id}`, {
      token: tenant.apiKey,
      body: { active: false },
    });
    expect(revoke.status).toBe(200);
    expect((await mint(tenant.apiKey, {})).status).toBe(201);
    // Another tenant's keys are counted apart.
    const other = await seedTenant();
    expect((await mint(other.apiKey, {})).status).toBe(201);
  });

  it("counts fleet keys with API keys", async () => {
    const tenant = await seedTenant();
    const fleetId = await installFleet(tenant);
    const fleetKey = () =>
      call("POST", `/v1/workspaces/${tenant.workspaceId}/fleet-keys`, {
        token: tenant.apiKey,
        body: { fleet_id: fleetId, key_name: "f" },
      });
    for (let i = 2; i < MAX_KEYS; i++) expect((await mint(tenant.apiKey, {})).status).toBe(201);
    expect((await fleetKey()).status).toBe(201);
    const overKey = await mint(tenant.apiKey, {});
    expect(overKey.status).toBe(409);
    expect(overKey.body.error_code).toBe("UZ-APIKEY-008");
    const overFleetKey = await fleetKey();
    expect(overFleetKey.status).toBe(409);
    expect(overFleetKey.body.error_code).toBe("UZ-APIKEY-008");
  });

  it("lets exactly one of many concurrent mints at cap − 1 through", async () => {
    const tenant = await seedTenant();
    for (let i = 2; i < MAX_KEYS; i++) expect((await mint(tenant.apiKey, {})).status).toBe(201);
    const raced = await Promise.all(Array.from({ length: 8 }, () => mint(tenant.apiKey, {})));
    const statuses = raced.map((response) => response.status).sort();
    expect(statuses).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
    expect(await liveKeys(tenant)).toBe(MAX_KEYS);
  });
});
