import { MAX_INPUT_DEPTH, type OutputOf } from "@fleet/contracts";
import type { createFleetSchedule } from "@fleet/contracts/fleet-schedules/create-fleet-schedule";
import type { createSchedule } from "@fleet/contracts/schedules/create-schedule";
import { describe, expect, it } from "vitest";
import { labelledFleet, messageFleet, uniqueLabel } from "./fleet-fixtures.ts";
import {
  call,
  operatorToken,
  type Response,
  seedTenant,
  type Tenant,
  type TrpcRefusal,
  testApi,
  useIsolatedApi,
} from "./harness.ts";
import { acquire, type EnrolledRunner, enrollRunner, type HeldLease } from "./runner-fixtures.ts";

/**
 * Hostile but valid JSON (issue 13, section 4): NUL characters, lone surrogates, deep nesting and a
 * `null` body are refused with 400 UZ-REQ-001 naming the field, on /v1 and /trpc, and nothing is stored.
 */

// The runner cases lease work, and runners lease any tenant's waiting work: a database of its own.
useIsolatedApi();

const NUL = "before\u0000after";
const LONE = "team\ud800";

function expectRefused(response: Response, field?: string) {
  expect(response.status, response.text).toBe(400);
  expect(response.headers.get("content-type")).toMatch(/^application\/problem\+json/);
  expect(response.body.error_code).toBe("UZ-REQ-001");
  if (field !== undefined) expect(response.body.detail).toMatch(new RegExp(`^${field}\\b`));
}

/** `{"a":{"a":…{}…}}` nested `levels` deep, built as text (JSON.stringify would recurse). */
function nestedText(levels: number, key = "a"): string {
  return `${`{"${key}":`.repeat(levels)}{}${"}".repeat(levels)}`;
}

async function rowCount(table: string, column: string, value: string): Promise<number> {
  const api = await testApi();
  const result = await api.database.query(`select count(*)::int as n from ${table} where ${column} = $1`, [
    value,
  ]);
  return (result[0] as { n: number }).n;
}

async function heldLease(tenant: Tenant): Promise<{ runner: EnrolledRunner; lease: HeldLease }> {
  const label = uniqueLabel();
  await messageFleet(tenant, await labelledFleet(tenant, label));
  const runner = await enrollRunner({ labels: [label] });
  const answer = await acquire(runner);
  expect(answer.body.lease, answer.text).not.toBeNull();
  return { runner, lease: answer.body.lease! };
}

describe("a NUL character in a string", () => {
  it("is refused in an API key's description, naming the field, and no key is minted", async () => {
    const tenant = await seedTenant();
    const before = await rowCount("api_keys", "tenant_id", tenant.tenantId);
    const response = await call("POST", "/v1/api-keys", {
      token: tenant.apiKey,
      body: { key_name: "ci", description: NUL },
    });
    expectRefused(response, "description");
    expect(response.body.detail).toContain("NUL");
    expect(await rowCount("api_keys", "tenant_id", tenant.tenantId)).toBe(before);
  });

  it("is refused in a runner's host_id, and no runner is enrolled", async () => {
    const hostId = `host-${uniqueLabel()}\u0000`;
    const response = await call("POST", "/v1/runners", {
      token: await operatorToken(["runner:admin"]),
      body: { host_id: hostId, assigned_policy: { sandbox_tier: "landlock_full" } },
    });
    expectRefused(response, "host_id");
    expect(await rowCount("runners", "host_id", hostId.replace("\u0000", ""))).toBe(0);
  });

  it("is refused in a person's schedule message, on create and on change", async () => {
    const tenant = await seedTenant();
    const fleetId = await labelledFleet(tenant, uniqueLabel());
    const base = `/v1/workspaces/${tenant.workspaceId}/fleets/${fleetId}/schedules`;
    const refused = await call("POST", base, {
      token: tenant.apiKey,
      body: { cron: "0 9 * * *", message: NUL },
    });
    expectRefused(refused, "message");
    expect(await rowCount("schedules", "fleet_id", fleetId)).toBe(0);
    const made = await call<OutputOf<typeof createSchedule>>("POST", base, {
      token: tenant.apiKey,
      body: { cron: "0 9 * * *", message: "fine" },
    });
    expect(made.status, made.text).toBe(201);
    const patched = await call("PATCH", `${base}/${made.body.schedule_id}`, {
      token: tenant.apiKey,
      body: { message: NUL },
    });
    expectRefused(patched, "message");
  });

  it("is refused in a runner's memory, schedule messages and report, and nothing is stored", async () => {
    const tenant = await seedTenant();
    const { runner, lease } = await heldLease(tenant);
    const base = `/v1/runners/me/leases/${lease.lease_id}`;
    const fencing_token = lease.fencing_token;
    const memory = await call("PUT", `${base}/memories/notes`, {
      token: runner.token,
      body: { fencing_token, content: NUL },
    });
    expectRefused(memory, "content");
    expect(await rowCount("fleet_memories", "fleet_id", lease.fleet_id)).toBe(0);

    const created = await call("POST", `${base}/schedules`, {
      token: runner.token,
      body: { fencing_token, cron: "0 8 * * *", message: NUL },
    });
    expectRefused(created, "message");
    expect(await rowCount("schedules", "fleet_id", lease.fleet_id)).toBe(0);
    const made = await call<OutputOf<typeof createFleetSchedule>>("POST", `${base}/schedules`, {
      token: runner.token,
      body: { fencing_token, cron: "0 8 * * *", message: "fine" },
    });
    expect(made.status, made.text).toBe(201);
    const patched = await call("PATCH", `${base}/schedules/${made.body.schedule_id}`, {
      token: runner.token,
      body: { fencing_token, message: NUL },
    });
    expectRefused(patched, "message");

    const reported = await call("POST", "/v1/runners/me/reports", {
      token: runner.token,
      body: {
        lease_id: lease.lease_id,
        event_id: lease.event_id,
        fencing_token,
        outcome: "processed",
        response_text: NUL,
      },
    });
    expectRefused(reported, "response_text");
    // The lease still stands: the refused report ended nothing.
    const renewed = await call("POST", `${base}/renew`, { token: runner.token, body: { fencing_token } });
    expect(renewed.status, renewed.text).toBe(200);
  });

  it("is refused in a field name inside free-form data, naming the object holding it", async () => {
    const tenant = await seedTenant();
    const response = await call("POST", `/v1/workspaces/${tenant.workspaceId}/secrets`, {
      token: tenant.apiKey,
      body: { name: "KEYED", data: { inner: { "a\u0000b": "x" } } },
    });
    expectRefused(response, "data\\.inner");
    expect(response.body.detail).toContain("field name");
  });

  it("is refused in a query parameter and a path parameter", async () => {
    const tenant = await seedTenant();
    const query = await call("GET", `/v1/workspaces/${tenant.workspaceId}/fleets?starting_after=a%00b`, {
      token: tenant.apiKey,
    });
    expectRefused(query, "starting_after");
    const { runner, lease } = await heldLease(tenant);
    const path = await call("PUT", `/v1/runners/me/leases/${lease.lease_id}/memories/a%00b`, {
      token: runner.token,
      body: { fencing_token: lease.fencing_token, content: "fine" },
    });
    expectRefused(path, "key");
    expect(await rowCount("fleet_memories", "fleet_id", lease.fleet_id)).toBe(0);
  });
});

describe("a path the router refuses itself", () => {
  it("answers problem+json for a path that is not UTF-8 and for an over-long parameter", async () => {
    const tenant = await seedTenant();
    const base = `/v1/workspaces/${tenant.workspaceId}/secrets`;
    const lone = await call("DELETE", `${base}/A%ED%A0%80`, { token: tenant.apiKey });
    expectRefused(lone);
    expect(lone.body.detail).toContain("UTF-8");
    const long = await call("DELETE", `${base}/${"A".repeat(300)}`, { token: tenant.apiKey });
    expectRefused(long);
  });
});

describe("a lone UTF-16 surrogate", () => {
  it("is refused in a workspace name, so two names differing there cannot collide", async () => {
    const tenant = await seedTenant();
    for (const name of [LONE, "team\udfff"]) {
      const response = await call("POST", "/v1/workspaces", { token: tenant.apiKey, body: { name } });
      expectRefused(response, "name");
      expect(response.body.detail).toContain("well-formed Unicode");
    }
    expect(await rowCount("workspaces", "tenant_id", tenant.tenantId)).toBe(1);
  });

  it("is accepted when paired: an emoji is well-formed", async () => {
    const tenant = await seedTenant();
    const response = await call("POST", "/v1/workspaces", {
      token: tenant.apiKey,
      body: { name: "team \ud83d\ude80" },
    });
    expect(response.status, response.text).toBe(201);
    expect(response.body.name).toBe("team 🚀");
  });
});

describe("deep nesting", () => {
  it(`refuses a secret's data nested 10,000 deep on create and replace (more than ${MAX_INPUT_DEPTH} levels)`, async () => {
    const tenant = await seedTenant();
    const base = `/v1/workspaces/${tenant.workspaceId}/secrets`;
    const deep = nestedText(10_000);
    const created = await call("POST", base, {
      token: tenant.apiKey,
      rawBody: `{"name":"DEEP","data":${deep}}`,
      headers: { "content-type": "application/json" },
    });
    expectRefused(created, "data");
    expect(created.body.detail).toContain(`more than ${MAX_INPUT_DEPTH} levels`);
    expect(await rowCount("secrets", "workspace_id", tenant.workspaceId)).toBe(0);

    const made = await call("POST", base, { token: tenant.apiKey, body: { name: "DEEP", data: { a: 1 } } });
    expect(made.status, made.text).toBe(201);
    const replaced = await call("PUT", `${base}/DEEP`, {
      token: tenant.apiKey,
      rawBody: `{"data":${deep}}`,
      headers: { "content-type": "application/json" },
    });
    expectRefused(replaced, "data");
  });

  it("takes data exactly at the bound, and refuses one level more", async () => {
    const tenant = await seedTenant();
    const base = `/v1/workspaces/${tenant.workspaceId}/secrets`;
    // The input is level 1 and `data` level 2, so data may hold MAX - 2 further objects.
    const at = await call("POST", base, {
      token: tenant.apiKey,
      rawBody: `{"name":"AT","data":${nestedText(MAX_INPUT_DEPTH - 2)}}`,
      headers: { "content-type": "application/json" },
    });
    expect(at.status, at.text).toBe(201);
    const over = await call("POST", base, {
      token: tenant.apiKey,
      rawBody: `{"name":"OVER","data":${nestedText(MAX_INPUT_DEPTH - 1)}}`,
      headers: { "content-type": "application/json" },
    });
    expectRefused(over, "data");
  });

  it("survives JSON parsing and the prototype-poisoning scan at the body ceiling's depth", async () => {
    const tenant = await seedTenant();
    // `constructor` makes the parser scan the whole tree; arrays fit the most levels into 64 KiB.
    const levels = 30_000;
    const response = await call("POST", `/v1/workspaces/${tenant.workspaceId}/secrets`, {
      token: tenant.apiKey,
      rawBody: `{"name":"SCAN","data":{"constructor":1,"a":${"[".repeat(levels)}${"]".repeat(levels)}}}`,
      headers: { "content-type": "application/json" },
    });
    expectRefused(response, "data\\.a");
  });
});

describe("a JSON null body", () => {
  it("is refused on routes whose body fields are all optional, as on the others", async () => {
    const tenant = await seedTenant();
    const fleetId = await labelledFleet(tenant, uniqueLabel());
    const runner = await enrollRunner({ labels: [uniqueLabel()] });
    const cases: [string, string, string][] = [
      ["PATCH", `/v1/workspaces/${tenant.workspaceId}/fleets/${fleetId}`, tenant.apiKey],
      ["POST", "/v1/runners/me/heartbeats", runner.token],
      ["POST", "/v1/runners/me/leases", runner.token],
      ["POST", "/v1/api-keys", tenant.apiKey],
    ];
    for (const [method, path, token] of cases) {
      const response = await call(method, path, {
        token,
        rawBody: "null",
        headers: { "content-type": "application/json" },
      });
      expectRefused(response);
      expect(response.body.detail).toBe("The body must be a JSON object.");
    }
  });
});

describe("over /trpc", () => {
  async function trpc(path: string, token: string, rawBody: string) {
    return call<TrpcRefusal>("POST", `/trpc/${path}`, {
      rawBody,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    });
  }

  it("refuses NUL, lone surrogates, deep nesting and a null input the same way", async () => {
    const tenant = await seedTenant();
    const sent = [
      ["apiKeys.create", JSON.stringify({ key_name: "k", description: NUL }), "description"],
      ["workspaces.create", JSON.stringify({ name: LONE }), "name"],
      [
        "secrets.create",
        `{"workspace_id":"${tenant.workspaceId}","name":"DEEP","data":${nestedText(10_000)}}`,
        "data",
      ],
      ["apiKeys.create", "null", "The body"],
    ] as const;
    for (const [path, body, field] of sent) {
      const response = await trpc(path, tenant.apiKey, body);
      expect(response.status, response.text).toBe(400);
      expect(response.body.error.data.problem.error_code).toBe("UZ-REQ-001");
      expect(response.body.error.data.problem.detail.startsWith(field), response.text).toBe(true);
    }
    expect(await rowCount("workspaces", "tenant_id", tenant.tenantId)).toBe(1);
    expect(await rowCount("secrets", "workspace_id", tenant.workspaceId)).toBe(0);
  });
});
