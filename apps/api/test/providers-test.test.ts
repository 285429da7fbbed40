import type { OutputOf } from "@fleet/contracts";
import type { testTenantProvider } from "@fleet/contracts/providers/test-tenant-provider";
import { auditEvents, eq } from "@fleet/db";
import { describe, expect, it } from "vitest";
import { call, operatorToken, seedMember, seedTenant, type Tenant, testApi } from "./harness.ts";
import {
  apiLogs,
  CANARY_KEY,
  MODEL,
  PRICES,
  useModelVendor,
  usePlatformDefault,
} from "./model-gateway-fixtures.ts";

type Tested = OutputOf<typeof testTenantProvider>;

// A short vendor deadline, so a hanging vendor times out within the test.
const vendor = useModelVendor({ FLEET_MODEL_DEADLINE_MS: "700" });

const test = (tenant: Tenant, token = tenant.apiKey) =>
  call<Tested>("POST", "/v1/tenants/me/provider/test", { token });

async function withProvider(body: Record<string, unknown> = {}): Promise<Tenant> {
  const tenant = await seedTenant("provider-test");
  const set = await call("PUT", "/v1/tenants/me/provider", {
    token: tenant.apiKey,
    body: { provider: "openai", model: MODEL, api_key: CANARY_KEY, ...body },
  });
  expect(set.status, set.text).toBe(200);
  return tenant;
}

/** The failure a test answered with: 200, not ok, its code; never the key. */
async function failed(tenant: Tenant, code: string): Promise<Tested> {
  const answer = await test(tenant);
  expect(answer.status, answer.text).toBe(200);
  expect(answer.body.ok).toBe(false);
  expect(answer.body.failure?.error_code, answer.text).toBe(code);
  expect(answer.body.latency_ms).toBeNull();
  expect(answer.text).not.toContain(CANARY_KEY);
  return answer.body;
}

describe("POST /v1/tenants/me/provider/test", () => {
  it("makes one minimal call with the stored key and answers ok with the model and latency, audited", async () => {
    const tenant = await withProvider();
    const before = vendor().calls.length;
    const answer = await test(tenant);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toMatchObject({
      ok: true,
      source: "tenant",
      provider: "openai",
      model: MODEL,
      failure: null,
    });
    expect(answer.body.latency_ms).toBeGreaterThanOrEqual(0);
    const calls = vendor().calls.slice(before);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.path).toBe("/v1/chat/completions");
    expect(calls[0]!.headers.authorization).toBe(`Bearer ${CANARY_KEY}`);
    expect(calls[0]!.body).toMatchObject({ model: MODEL, max_completion_tokens: 1, stream: false });
    expect(answer.text).not.toContain(CANARY_KEY);

    const api = await testApi();
    const rows = await api.database.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.requestId, answer.headers.get("x-request-id")!));
    expect(rows.map((row) => [row.action, row.details])).toEqual([
      ["provider.test", { source: "tenant", provider: "openai", model: MODEL, ok: true, error_code: null }],
    ]);
    expect(await apiLogs()).not.toContain(CANARY_KEY);
  });

  it("speaks the Anthropic wire for an anthropic provider", async () => {
    const created = await call("POST", "/v1/admin/models", {
      token: await operatorToken(["model:write"]),
      body: { provider: "anthropic", model_id: "claude-haiku-4-5", context_cap_tokens: 200_000, ...PRICES },
    });
    expect([201, 409]).toContain(created.status);
    const tenant = await withProvider({ provider: "anthropic", model: "claude-haiku-4-5" });
    const before = vendor().calls.length;
    const answer = await test(tenant);
    expect(answer.body, answer.text).toMatchObject({
      ok: true,
      provider: "anthropic",
      model: "claude-haiku-4-5",
    });
    const [sent] = vendor().calls.slice(before);
    expect(sent?.path).toBe("/v1/messages");
    expect(sent?.body).toMatchObject({ max_tokens: 1 });
  });

  it("explains a refused key, a rate limit, an unreachable provider and a timeout by their codes", async () => {
    const refusedKey = await withProvider({ api_key: "sk-not-the-vendors-key" });
    const keyAnswer = await failed(refusedKey, "UZ-MODEL-005");
    expect(keyAnswer.failure).toMatchObject({ title: "Model provider key refused" });
    expect(keyAnswer.failure?.detail).toContain("provider settings");
    expect(JSON.stringify(keyAnswer)).not.toContain("sk-not-the-vendors-key");

    const tenant = await withProvider();
    vendor().script({ kind: "status", status: 429, retryAfter: "7" });
    expect((await failed(tenant, "UZ-MODEL-004")).failure?.detail).toContain("retry after 7 s");
    vendor().script({ kind: "status", status: 503 });
    await failed(tenant, "UZ-MODEL-002");
    vendor().script({ kind: "hang" });
    await failed(tenant, "UZ-MODEL-003");
    vendor().script({ kind: "status", status: 400, message: `bad request near ${CANARY_KEY}` });
    expect((await failed(tenant, "UZ-MODEL-006")).failure?.detail).toContain("bad request near");
  });

  it("is for admins of the tenant: a member without workspace:admin is refused 403", async () => {
    const tenant = await withProvider();
    const member = await seedMember(tenant, ["fleet:read"]);
    const refused = await test(tenant, member.token);
    expect(refused.status, refused.text).toBe(403);
    expect(refused.headers.get("content-type")).toContain("application/problem+json");
  });

  // Runs last: it sets the platform default for the file's whole database.
  it("says when there is no provider at all, then tests the platform default a tenant falls back to", async () => {
    const tenant = await seedTenant("provider-test");
    const none = await failed(tenant, "UZ-MODEL-001");
    expect(none).toMatchObject({ source: null, provider: null, model: null });

    await usePlatformDefault("openai", MODEL);
    const answer = await test(tenant);
    expect(answer.body, answer.text).toMatchObject({
      ok: true,
      source: "platform",
      provider: "openai",
      model: MODEL,
    });
  });
});
