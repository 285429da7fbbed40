import { type FakeModelVendor, modelVendorEnv, startFakeModelVendor } from "@fleet/testing/fake-model-vendor";
import { afterAll, beforeAll, expect } from "vitest";
import { newId } from "../src/runtime/ids.ts";
import { leasedFleet } from "./approval-fixtures.ts";
import { billingOf, leaseOne, workingFleet } from "./billing-fixtures.ts";
import { call, operatorToken, seedTenant, type Tenant, testApi, useIsolatedApi } from "./harness.ts";
import { type EnrolledRunner, type HeldLease, report } from "./runner-fixtures.ts";
import { fleetStream, type OpenedStream, openTail } from "./stream-fixtures.ts";

/** The provider key the vendor accepts: it must never be seen again (an answer, a log line, an error). */
export const CANARY_KEY = `sk-canary-never-leak-${newId()}`;
export const MODEL = "gpt-4o-mini";

export const PRICES = {
  input_nanos_per_mtok: 3_000_000_000,
  cached_input_nanos_per_mtok: 300_000_000,
  output_nanos_per_mtok: 15_000_000_000,
};

/** The catalogue's price of the vendor's usage: uncached input, cached input, output; rounded up. */
export function priceOf(usage: { input: number; output: number; cached?: number }): number {
  const cached = usage.cached ?? 0;
  const micro =
    BigInt(usage.input - cached) * BigInt(PRICES.input_nanos_per_mtok) +
    BigInt(cached) * BigInt(PRICES.cached_input_nanos_per_mtok) +
    BigInt(usage.output) * BigInt(PRICES.output_nanos_per_mtok);
  return Number((micro + 999_999n) / 1_000_000n);
}

/**
 * The fake model vendor (accepting only the canary key) and an API of the file's own pointed at it, with
 * the vendor's model priced in the catalogue. Answers a getter: the vendor exists once the hooks have run.
 */
export function useModelVendor(env: Record<string, string> = {}): () => FakeModelVendor {
  let vendor: FakeModelVendor | null = null;
  beforeAll(async () => {
    vendor = await startFakeModelVendor({ apiKey: CANARY_KEY });
  });
  afterAll(async () => {
    await vendor?.close();
  });
  useIsolatedApi(() => ({ ...modelVendorEnv(vendor!), ...env }));
  beforeAll(async () => {
    const created = await call("POST", "/v1/admin/models", {
      token: await operatorToken(["model:write"]),
      body: { provider: "openai", model_id: MODEL, context_cap_tokens: 128_000, ...PRICES },
    });
    expect(created.status, created.text).toBe(201);
  });
  return () => vendor!;
}

export interface GatewayRun {
  tenant: Tenant;
  fleetId: string;
  runner: EnrolledRunner;
  lease: HeldLease;
}

/** A tenant with the openai provider (the canary key) and a lease of one of its fleets. */
export async function gatewayRun(provider: Record<string, unknown> | null = {}): Promise<GatewayRun> {
  const tenant = await seedTenant("gateway");
  if (provider !== null) {
    const set = await call("PUT", "/v1/tenants/me/provider", {
      token: tenant.apiKey,
      body: { provider: "openai", model: MODEL, api_key: CANARY_KEY, ...provider },
    });
    expect(set.status, set.text).toBe(200);
  }
  const { fleetId, runner } = await workingFleet(tenant);
  return { tenant, fleetId, runner, lease: await leaseOne(runner) };
}

/**
 * A run of a fleet declaring the secret `name` (its value `value`), its tenant on the fake vendor (the
 * canary key), with the live tail of its chunk frames open.
 */
export async function secretRun(name: string, value: string): Promise<GatewayRun & { stream: OpenedStream }> {
  const tenant = await seedTenant("secret-run");
  const set = await call("PUT", "/v1/tenants/me/provider", {
    token: tenant.apiKey,
    body: { provider: "openai", model: MODEL, api_key: CANARY_KEY },
  });
  expect(set.status, set.text).toBe(200);
  const stored = await call("POST", `/v1/workspaces/${tenant.workspaceId}/secrets`, {
    token: tenant.apiKey,
    body: { name, data: { token: value } },
  });
  expect(stored.status, stored.text).toBe(201);
  const leased = await leasedFleet(tenant, { credentials: [name] });
  const stream = await openTail(fleetStream(tenant, leased.fleetId, "?kinds=chunk"), tenant.apiKey);
  return { tenant, ...leased, stream };
}

export const chatPath = (lease: HeldLease) =>
  `/v1/runners/me/leases/${lease.lease_id}/model/chat/completions`;

/** A chat completion through the gateway, as an OpenAI client sends it. */
export function chat(run: GatewayRun, body: Record<string, unknown> = {}, token = run.lease.fencing_token) {
  return call<Record<string, unknown> & { error_code?: string; detail?: string }>(
    "POST",
    chatPath(run.lease),
    {
      token: run.runner.token,
      headers: { "fleet-fencing-token": String(token) },
      body: { model: "whatever-the-runner-says", messages: [{ role: "user", content: "hello" }], ...body },
    },
  );
}

/** Every log line the API wrote so far, joined. */
export async function apiLogs(): Promise<string> {
  return (await testApi()).logs.join("\n");
}

/**
 * Makes `provider`'s `model` the platform default, its key (the canary) held by a tenant of its own. It
 * sets the default for the whole of the file's database: a test that calls it runs last.
 */
export async function usePlatformDefault(provider: "openai" | "anthropic", model: string): Promise<void> {
  const source = await seedTenant("platform");
  const secret = await call("POST", `/v1/workspaces/${source.workspaceId}/secrets`, {
    token: source.apiKey,
    body: {
      name: `${provider.toUpperCase()}_API_KEY`,
      kind: "provider_api_key",
      data: { api_key: CANARY_KEY },
    },
  });
  expect(secret.status, secret.text).toBe(201);
  const set = await call("PUT", "/v1/admin/platform-keys", {
    token: await operatorToken(["platform-key:write"]),
    body: { provider, source_workspace_id: source.workspaceId, model },
  });
  expect(set.status, set.text).toBe(200);
}

/** Starts a streamed call as an OpenAI client sends it; the answer's body is the caller's to read. */
export async function startStream(
  run: GatewayRun,
  body: Record<string, unknown> = {},
  signal?: AbortSignal,
): Promise<Response> {
  const api = await testApi();
  return fetch(`${api.baseUrl}${chatPath(run.lease)}`, {
    method: "POST",
    ...(signal ? { signal } : {}),
    headers: {
      authorization: `Bearer ${run.runner.token}`,
      "fleet-fencing-token": String(run.lease.fencing_token),
      "content-type": "application/json",
    },
    body: JSON.stringify({ model: "x", messages: [{ role: "user", content: "hi" }], stream: true, ...body }),
  });
}

/** A streamed call read piece by piece as the API writes it: each piece and when it came, and its data lines. */
export async function streamCall(run: GatewayRun, body: Record<string, unknown> = {}) {
  const response = await startStream(run, body);
  const pieces: { text: string; at: number }[] = [];
  const decoder = new TextDecoder();
  for await (const part of response.body!) pieces.push({ text: decoder.decode(part), at: Date.now() });
  const text = pieces.map((p) => p.text).join("");
  const data = text
    .split("\n")
    .filter((line) => line.startsWith("data: "))
    .map((line) => line.slice(6));
  return { response, pieces, text, data };
}

/** The run's fleet's spend this period, as billing shows it. */
export const spendOf = async (run: GatewayRun) =>
  (await billingOf(run.tenant)).body.fleets.find((f) => f.fleet_id === run.fleetId)?.period_spend_nanos;

/**
 * The run's spend once the calls answered so far are charged: a call's charge is written just after its
 * answer has gone (the gateway's settlements.ts), so billing is read until it shows `nanos`.
 */
export const expectSpend = (run: GatewayRun, nanos: number) =>
  expect.poll(() => spendOf(run), { timeout: 10_000 }).toBe(nanos);

/**
 * Nothing charged: the run is reported first (the report waits for the charges of its calls on this
 * instance), so a charge written late would be seen.
 */
export async function expectNothingCharged(run: GatewayRun): Promise<void> {
  const reported = await report(run.runner, run.lease);
  expect(reported.status, reported.text).toBe(200);
  expect(await spendOf(run)).toBe(0);
}
