import type { OutputOf } from "@fleet/contracts";
import type { createFleet } from "@fleet/contracts/fleets/create-fleet";
import type { getFleet } from "@fleet/contracts/fleets/get-fleet";
import { beforeAll, describe, expect, it } from "vitest";
import { newId } from "../src/runtime/ids.ts";
import { leaseOne } from "./billing-fixtures.ts";
import { messageFleet, uniqueLabel } from "./fleet-fixtures.ts";
import { createEntry, definition, type Item } from "./fleet-library-fixtures.ts";
import { call, operatorToken, seedTenant, type Tenant } from "./harness.ts";
import { CANARY_KEY, type GatewayRun, MODEL, PRICES, useModelVendor } from "./model-gateway-fixtures.ts";
import { enrollRunner } from "./runner-fixtures.ts";

// The definition's `model:`: read, stored and shown like its other fields, and what the gateway sends
// when it names a catalogue model of the tenant's provider (docs/decisions/model-gateway.md).

const vendor = useModelVendor();
/** Another openai model the catalogue prices and the vendor serves. */
const OTHER_OPENAI = "gpt-4o";
const ANTHROPIC_ONLY = "claude-only-model";

beforeAll(async () => {
  const token = await operatorToken(["model:write"]);
  for (const [provider, model_id] of [
    ["openai", OTHER_OPENAI],
    ["anthropic", ANTHROPIC_ONLY],
  ]) {
    const created = await call("POST", "/v1/admin/models", {
      token,
      body: { provider, model_id, context_cap_tokens: 100_000, ...PRICES },
    });
    expect(created.status, created.text).toBe(201);
  }
});

type FleetView = OutputOf<typeof getFleet>;

/** A workspace entry from `frontMatter` (after its name), installed; answers the entry and the fleet. */
async function installed(tenant: Tenant, frontMatter: string) {
  const entry = await createEntry(tenant, {
    definition: definition(`name: Modelled ${newId()}\n${frontMatter}`),
  });
  expect(entry.status, entry.text).toBe(201);
  const fleet = await call<OutputOf<typeof createFleet>>(
    "POST",
    `/v1/workspaces/${tenant.workspaceId}/fleets`,
    {
      token: tenant.apiKey,
      body: { tenant_library_id: entry.body.id },
    },
  );
  expect(fleet.status, fleet.text).toBe(201);
  return { entry: entry.body, fleetId: fleet.body.fleet_id };
}

/** A tenant on the openai provider (MODEL), a fleet whose definition says `model`, and a lease of it. */
async function runNaming(model: string | null): Promise<GatewayRun> {
  const tenant = await seedTenant("defmodel");
  const set = await call("PUT", "/v1/tenants/me/provider", {
    token: tenant.apiKey,
    body: { provider: "openai", model: MODEL, api_key: CANARY_KEY },
  });
  expect(set.status, set.text).toBe(200);
  const label = uniqueLabel();
  const named = model === null ? "" : `model: ${JSON.stringify(model)}\n`;
  const { fleetId } = await installed(tenant, `${named}requires:\n  runner_labels: [${label}]`);
  await messageFleet(tenant, fleetId);
  const runner = await enrollRunner({ labels: [label] });
  return { tenant, fleetId, runner, lease: await leaseOne(runner) };
}

/** The model the vendor received for one gateway call, and the models list's answer. */
async function sentModel(run: GatewayRun): Promise<{ sent: string; listed: string }> {
  const base = `/v1/runners/me/leases/${run.lease.lease_id}/model`;
  vendor().script({ kind: "answer", text: "ok" });
  const before = vendor().calls.length;
  const answer = await call("POST", `${base}/chat/completions`, {
    token: run.runner.token,
    headers: { "fleet-fencing-token": String(run.lease.fencing_token) },
    body: { model: "the-runner-asks-for-this", messages: [{ role: "user", content: "hi" }] },
  });
  expect(answer.status, answer.text).toBe(200);
  const calls = vendor().calls.slice(before);
  expect(calls).toHaveLength(1);
  const listed = await call<{ data: { id: string }[] }>("GET", `${base}/models`, { token: run.runner.token });
  expect(listed.status, listed.text).toBe(200);
  return { sent: (calls[0]!.body as { model: string }).model, listed: listed.body.data[0]!.id };
}

describe("the definition's model:", () => {
  it("is stored and shown by the entry, its read and the installed fleet; none reads as null", async () => {
    const tenant = await seedTenant("defmodel");
    const { entry, fleetId } = await installed(tenant, `model: ${OTHER_OPENAI}`);
    expect(entry.model).toBe(OTHER_OPENAI);
    const read = await call<Item>("GET", `/v1/workspaces/${tenant.workspaceId}/fleet-libraries/${entry.id}`, {
      token: tenant.apiKey,
    });
    expect(read.body.model).toBe(OTHER_OPENAI);
    const path = `/v1/workspaces/${tenant.workspaceId}/fleets/${fleetId}`;
    const fleet = await call<FleetView>("GET", path, { token: tenant.apiKey });
    expect(fleet.body.model).toBe(OTHER_OPENAI);

    // A definition without model: (every one written before it existed) stays valid and names none.
    const plain = await installed(tenant, "description: no model");
    expect(plain.entry.model).toBeNull();
    const plainFleet = `/v1/workspaces/${tenant.workspaceId}/fleets/${plain.fleetId}`;
    expect((await call<FleetView>("GET", plainFleet, { token: tenant.apiKey })).body.model).toBeNull();

    // source_markdown replaces the whole definition, model: included (dropped when the new one has none).
    const patched = await call<FleetView>("PATCH", path, {
      token: tenant.apiKey,
      body: { source_markdown: definition(`name: Again\nmodel: ${MODEL}`) },
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.model).toBe(MODEL);
    const dropped = await call<FleetView>("PATCH", path, {
      token: tenant.apiKey,
      body: { source_markdown: definition("name: Again") },
    });
    expect(dropped.body.model).toBeNull();
  });

  it("refuses a bad value with 400 UZ-LIBRARY-010 naming model, storing nothing", async () => {
    const tenant = await seedTenant("defmodel");
    const cases = [
      "model: 42",
      "model: [a, b]",
      "model: {id: x}",
      "model: null",
      "model: 'has space'",
      "model: ''",
      "model: '-leading-dash'",
      `model: '${"m".repeat(201)}'`,
      "model: 'tab\\there'",
    ];
    for (const line of cases) {
      const answer = await createEntry(tenant, { definition: definition(`name: Bad\n${line}`) });
      expect(answer.status, line).toBe(400);
      expect(answer.body.error_code, line).toBe("UZ-LIBRARY-010");
      expect(answer.body.detail, line).toMatch(/^model must be a/);
    }
    const listed = await call<{ items: unknown[] }>(
      "GET",
      `/v1/workspaces/${tenant.workspaceId}/fleet-libraries`,
      {
        token: tenant.apiKey,
      },
    );
    expect(listed.body.items.filter((item) => (item as Item).name === "Bad")).toEqual([]);
    // The longest id the catalogue takes (200 characters) is accepted.
    const longest = await createEntry(tenant, {
      definition: definition(`name: Long\nmodel: ${"m".repeat(200)}`),
    });
    expect(longest.status, longest.text).toBe(201);
  });
});

describe("the gateway's model for a fleet", () => {
  it("is the definition's model: when it is a catalogue model of the tenant's provider", async () => {
    const run = await runNaming(OTHER_OPENAI);
    expect(await sentModel(run)).toEqual({ sent: OTHER_OPENAI, listed: OTHER_OPENAI });
  });

  it("is the provider's model when the definition names another provider's model, an unknown one or none", async () => {
    for (const named of [ANTHROPIC_ONLY, "not-in-the-catalogue", null]) {
      const run = await runNaming(named);
      expect(await sentModel(run), String(named)).toEqual({ sent: MODEL, listed: MODEL });
    }
  });
});
