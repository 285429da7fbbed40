import dns from "node:dns";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Resolve } from "../src/runtime/public-address.ts";
import { replaceTenantProvider } from "../src/services/providers/replace-tenant-provider.ts";
import { call, operatorToken, testApi } from "./harness.ts";
import { CANARY_KEY, chat, gatewayRun, MODEL, PRICES, useModelVendor } from "./model-gateway-fixtures.ts";

const vendor = useModelVendor({ FLEET_MODEL_DEADLINE_MS: "3000" });

/**
 * The test's own DNS. A name answers the gateway's check (through the API's injected resolver,
 * `services.resolve`) with `check`, and a connection that looked it up again (through `dns.lookup`,
 * patched below, as Node's connections do) with `connect`: a rebinding name answers the second
 * differently, as if it changed between the check and the connection.
 */
const zone = new Map<string, { check: string[]; connect: string[] }>();
/** The names connections looked up (through `dns.lookup`). */
const connectLookups: string[] = [];
const resolve: Resolve = async (host) => {
  const found = zone.get(host)?.check ?? [];
  if (found.length === 0) throw new Error(`ENOTFOUND ${host}`);
  return found;
};

const systemLookup = dns.lookup;
beforeAll(async () => {
  (await testApi()).app.services.resolve = resolve;
  // What a connection resolving the name again would hear: the zone's `connect`; other names as ever.
  const lookup = (host: string, options: unknown, callback?: unknown) => {
    const name = zone.get(host);
    if (name === undefined) return Reflect.apply(systemLookup, dns, [host, options, callback]);
    connectLookups.push(host);
    const done = (typeof options === "function" ? options : callback) as (...args: unknown[]) => void;
    const found = name.connect.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
    const all = typeof options === "object" && (options as { all?: boolean } | null)?.all === true;
    return all ? done(null, found) : done(null, found[0]!.address, found[0]!.family);
  };
  dns.lookup = lookup as typeof dns.lookup;
  const created = await call("POST", "/v1/admin/models", {
    token: await operatorToken(["model:write"]),
    body: { provider: "openai_compatible", model_id: MODEL, context_cap_tokens: 128_000, ...PRICES },
  });
  expect(created.status, created.text).toBe(201);
});
afterAll(() => {
  dns.lookup = systemLookup;
});

/**
 * A public address no network routes (the retired 6bone range): a connection pinned to it fails at once,
 * or waits out the file's 3 s deadline, and sends nothing anywhere else.
 */
const PUBLIC = "3ffe:1900:4545:3:200:f8ff:fe21:67cf";

/** A run whose tenant's provider is openai_compatible at `host` (the vendor's port), stored as public. */
async function compatibleRun(host: string, name: { check: string[]; connect: string[] }) {
  zone.set(host, name);
  const run = await gatewayRun(null);
  const api = await testApi();
  await replaceTenantProvider(
    api.app.services,
    { principal: `user:${run.tenant.userId}`, requestId: "direct-call" },
    run.tenant.tenantId,
    {
      provider: "openai_compatible",
      model: MODEL,
      api_key: CANARY_KEY,
      base_url: `https://${host}:${new URL(vendor().url).port}/v1`,
    },
    resolve,
  );
  return run;
}

describe("the model gateway connects only to the addresses it checked", () => {
  it("refuses a stored base_url whose host resolves privately at the call; the vendor sees nothing", async () => {
    const name = { check: [PUBLIC], connect: [PUBLIC] };
    const run = await compatibleRun("llm.example.com", name);
    const seen = { calls: vendor().calls.length, connections: vendor().connections };
    for (const addresses of [
      ["127.0.0.1"],
      ["169.254.169.254"],
      [PUBLIC, "10.0.0.5"],
      ["::ffff:127.0.0.1"],
    ]) {
      name.check = addresses;
      const refused = await chat(run);
      expect(refused.status, `${addresses}: ${refused.text}`).toBe(400);
      expect(refused.body).toMatchObject({ error_code: "UZ-PROVIDER-005" });
      expect(refused.body.detail).toContain("not public");
      expect(refused.text).not.toContain(CANARY_KEY);
    }
    // A name that no longer resolves is the provider unreachable (a client may retry), not a bad setting.
    name.check = [];
    const gone = await chat(run);
    expect(gone.status, gone.text).toBe(502);
    expect(gone.body).toMatchObject({ error_code: "UZ-MODEL-002" });
    expect(vendor().calls.length).toBe(seen.calls);
    expect(vendor().connections).toBe(seen.connections);
  });

  it("never reaches a private address a name turns to after the check (DNS rebinding)", async () => {
    // Public to the check, the vendor's loopback to any lookup after it.
    const host = "rebind.example.com";
    const run = await compatibleRun(host, { check: [PUBLIC], connect: ["127.0.0.1"] });
    const seen = { calls: vendor().calls.length, connections: vendor().connections };
    const calls = await Promise.all(Array.from({ length: 4 }, () => chat(run)));
    for (const answered of calls) {
      // The connection went to the checked address, which no network routes: unreachable, or the deadline.
      expect([502, 504], answered.text).toContain(answered.status);
      expect(["UZ-MODEL-002", "UZ-MODEL-003"]).toContain(answered.body.error_code);
      expect(answered.text).not.toContain(CANARY_KEY);
    }
    expect(connectLookups).not.toContain(host);
    expect(vendor().connections).toBe(seen.connections);
    expect(vendor().calls.length).toBe(seen.calls);
  });
});
