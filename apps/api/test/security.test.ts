import type { CredentialClass, Operation, OutputOf } from "@fleet/contracts";
import type { createApiKey } from "@fleet/contracts/api-keys/create-api-key";
import type { createLibrary } from "@fleet/contracts/fleet-libraries/create-library";
import type { createSchedule } from "@fleet/contracts/schedules/create-schedule";
import { describe, expect, it } from "vitest";
import { operations } from "../src/router/root.ts";
import { gateIn } from "./approval-fixtures.ts";
import { chatLinkOf } from "./chat-link-fixtures.ts";
import { finishEvent, installFleet, messageFleet } from "./fleet-fixtures.ts";
import { grantIn } from "./grant-fixtures.ts";
import {
  call,
  operatorToken,
  seedMember,
  seedRunnerToken,
  seedTenant,
  sessionFor,
  type Tenant,
  type TrpcRefusal,
} from "./harness.ts";
import { endpointIn, PUBLIC_ENDPOINT_URL, pingedEndpoint } from "./webhook-endpoint-fixtures.ts";

/**
 * The shared security suite: every operation in the contracts, generated from them, so a new route cannot
 * skip it. Routes naming a resource need a fixture that makes one in another tenant.
 */
type Fixture = (owner: Tenant) => Promise<{ params: Record<string, string>; body?: unknown }>;

async function secretIn(owner: Tenant): Promise<Record<string, string>> {
  const created = await call("POST", `/v1/workspaces/${owner.workspaceId}/secrets`, {
    token: owner.apiKey,
    body: { name: "FIXTURE_TOKEN", data: { token: "fixture-value" } },
  });
  expect(created.status).toBe(201);
  return { workspace_id: owner.workspaceId, secret_name: "FIXTURE_TOKEN" };
}

async function endpointParams(owner: Tenant): Promise<Record<string, string>> {
  return { workspace_id: owner.workspaceId, endpoint_id: (await endpointIn(owner)).id };
}

async function deliveryParams(owner: Tenant): Promise<Record<string, string>> {
  const { endpoint, eventId } = await pingedEndpoint(owner);
  return { workspace_id: owner.workspaceId, endpoint_id: endpoint.id, event_id: eventId };
}

async function fleetIn(owner: Tenant): Promise<Record<string, string>> {
  return { workspace_id: owner.workspaceId, fleet_id: await installFleet(owner) };
}

/** A fleet of the owner's with one message sent to it: the event's params. */
async function eventIn(owner: Tenant): Promise<Record<string, string>> {
  const params = await fleetIn(owner);
  return { ...params, event_id: await messageFleet(owner, params.fleet_id!) };
}

/** A definition small enough for every fixture: a name and instructions. */
const LIBRARY_DEFINITION = "---\nname: Fixture fleet\n---\nAnswer every message.\n";

async function libraryEntryIn(owner: Tenant): Promise<Record<string, string>> {
  const created = await call<OutputOf<typeof createLibrary>>(
    "POST",
    `/v1/workspaces/${owner.workspaceId}/fleet-libraries`,
    {
      token: owner.apiKey,
      body: { definition: LIBRARY_DEFINITION },
    },
  );
  expect(created.status).toBe(201);
  return { workspace_id: owner.workspaceId, library_id: created.body.id };
}

async function scheduleIn(owner: Tenant): Promise<Record<string, string>> {
  const params = await fleetIn(owner);
  const created = await call<OutputOf<typeof createSchedule>>(
    "POST",
    `/v1/workspaces/${owner.workspaceId}/fleets/${params.fleet_id}/schedules`,
    { token: owner.apiKey, body: { cron: "0 9 * * *", message: "fixture" } },
  );
  expect(created.status).toBe(201);
  return { ...params, schedule_id: created.body.schedule_id };
}

const otherTenantFixtures: Record<string, Fixture> = {
  "schedules.list": async (owner) => ({ params: await fleetIn(owner) }),
  "schedules.create": async (owner) => ({
    params: await fleetIn(owner),
    body: { cron: "0 9 * * *", message: "m" },
  }),
  "schedules.get": async (owner) => ({ params: await scheduleIn(owner) }),
  "schedules.update": async (owner) => ({ params: await scheduleIn(owner), body: { status: "paused" } }),
  "schedules.delete": async (owner) => ({ params: await scheduleIn(owner) }),
  "schedules.sync": async (owner) => ({ params: await scheduleIn(owner) }),
  "fleetLibraries.list": async (owner) => ({ params: { workspace_id: owner.workspaceId } }),
  "fleetLibraries.get": async (owner) => ({ params: await libraryEntryIn(owner) }),
  "fleetLibraries.create": async (owner) => ({
    params: { workspace_id: owner.workspaceId },
    body: { definition: LIBRARY_DEFINITION },
  }),
  "fleets.list": async (owner) => ({ params: { workspace_id: owner.workspaceId } }),
  "fleets.create": async (owner) => ({
    params: { workspace_id: owner.workspaceId },
    body: { platform_library_id: "01a2000a-0000-7000-8000-00000000000f" },
  }),
  "fleets.get": async (owner) => ({ params: await fleetIn(owner) }),
  "ids.resolve": async (owner) => ({ params: { id: (await fleetIn(owner)).fleet_id! } }),
  "fleets.update": async (owner) => ({ params: await fleetIn(owner), body: { status: "paused" } }),
  "fleets.delete": async (owner) => ({ params: await fleetIn(owner) }),
  "billing.getBudget": async (owner) => ({ params: await fleetIn(owner) }),
  "billing.updateBudget": async (owner) => ({
    params: await fleetIn(owner),
    body: { period_budget_nanos: 1 },
  }),
  "fleets.message": async (owner) => ({ params: await fleetIn(owner), body: { message: "hi" } }),
  "fleetEvents.list": async (owner) => ({ params: await fleetIn(owner) }),
  "fleetEvents.listWorkspace": async (owner) => ({ params: { workspace_id: owner.workspaceId } }),
  "overview.get": async (owner) => ({ params: { workspace_id: owner.workspaceId } }),
  "fleetEvents.stream": async (owner) => ({ params: await fleetIn(owner) }),
  "fleetEvents.streamWorkspace": async (owner) => ({ params: { workspace_id: owner.workspaceId } }),
  "fleetEvents.get": async (owner) => ({ params: await eventIn(owner) }),
  "fleetEvents.listFrames": async (owner) => ({ params: await eventIn(owner) }),
  "fleetEvents.retry": async (owner) => {
    const params = await fleetIn(owner);
    const eventId = await messageFleet(owner, params.fleet_id!);
    // Finished, so only the tenant boundary can refuse it.
    await finishEvent(eventId);
    return { params: { ...params, event_id: eventId } };
  },
  "memories.list": async (owner) => ({ params: await fleetIn(owner) }),
  "secrets.list": async (owner) => ({ params: { workspace_id: owner.workspaceId } }),
  "secrets.listCredentials": async (owner) => ({ params: { workspace_id: owner.workspaceId } }),
  "secrets.create": async (owner) => ({
    params: { workspace_id: owner.workspaceId },
    body: { name: "NEW_ONE", data: { a: 1 } },
  }),
  "secrets.replace": async (owner) => ({
    params: await secretIn(owner),
    body: { data: { token: "replaced" } },
  }),
  "secrets.delete": async (owner) => ({ params: await secretIn(owner) }),
  "approvals.list": async (owner) => ({ params: { workspace_id: owner.workspaceId } }),
  "audit.listWorkspace": async (owner) => ({ params: { workspace_id: owner.workspaceId } }),
  "integrationGrants.request": async (owner) => ({
    params: await fleetIn(owner),
    body: { service: "github", reason: "fixture" },
  }),
  "integrationGrants.list": async (owner) => ({ params: await fleetIn(owner) }),
  "integrationGrants.revoke": async (owner) => ({ params: await grantIn(owner) }),
  "connectors.listWorkspace": async (owner) => ({ params: { workspace_id: owner.workspaceId } }),
  "connectors.connect": async (owner) => ({ params: { workspace_id: owner.workspaceId, provider: "slack" } }),
  "connectors.get": async (owner) => ({ params: { workspace_id: owner.workspaceId, provider: "slack" } }),
  "connectors.delete": async (owner) => ({ params: { workspace_id: owner.workspaceId, provider: "slack" } }),
  "connectors.listRoutes": async (owner) => ({
    params: { workspace_id: owner.workspaceId, provider: "slack" },
  }),
  "connectors.setRoute": async (owner) => ({
    params: { workspace_id: owner.workspaceId, provider: "slack", channel_id: "C1" },
    body: { fleet_id: (await fleetIn(owner)).fleet_id },
  }),
  "connectors.deleteRoute": async (owner) => ({
    params: { workspace_id: owner.workspaceId, provider: "slack", channel_id: "C1" },
  }),
  "webhooks.getSecret": async (owner) => ({ params: { workspace_id: owner.workspaceId } }),
  "webhooks.rotateSecret": async (owner) => ({ params: { workspace_id: owner.workspaceId } }),
  "webhooks.getNoticeSecret": async (owner) => ({ params: { workspace_id: owner.workspaceId } }),
  "webhooks.rotateNoticeSecret": async (owner) => ({ params: { workspace_id: owner.workspaceId } }),
  "approvals.get": async (owner) => ({ params: await gateIn(owner) }),
  "approvals.approve": async (owner) => ({ params: await gateIn(owner), body: {} }),
  "approvals.deny": async (owner) => ({ params: await gateIn(owner), body: {} }),
  "approvals.extend": async (owner) => ({
    params: await gateIn(owner),
    body: { extend_ms: 1_000, reason: "fixture" },
  }),
  "approvalPolicies.get": async (owner) => ({ params: { workspace_id: owner.workspaceId } }),
  "approvalPolicies.replace": async (owner) => ({
    params: { workspace_id: owner.workspaceId },
    body: { rules: [], escalation_webhook_url: null },
  }),
  "members.update": async (owner) => ({
    params: { user_id: (await seedMember(owner, ["fleet:read"])).userId },
    body: { scopes: [] },
  }),
  "members.remove": async (owner) => ({
    params: { user_id: (await seedMember(owner, ["fleet:read"])).userId },
  }),
  "cliCredentials.revoke": async (owner) => {
    await sessionFor(owner, "cli");
    const listed = await call<{ items: { id: string }[] }>("GET", "/v1/users/me/cli-credentials", {
      token: owner.apiKey,
    });
    return { params: { credential_id: listed.body.items[0]!.id } };
  },
  "chatLinks.delete": async (owner) => ({ params: { link_id: await chatLinkOf(owner) } }),
  "apiKeys.update": async (owner) => ({ params: { id: await mintKeyId(owner) }, body: { active: false } }),
  "fleetKeys.create": async (owner) => ({
    params: { workspace_id: owner.workspaceId },
    body: { fleet_id: await installFleet(owner), key_name: "k" },
  }),
  "fleetKeys.list": async (owner) => ({ params: { workspace_id: owner.workspaceId } }),
  "fleetKeys.delete": async (owner) => {
    const fleetId = await installFleet(owner);
    const minted = await call<{ id: string }>("POST", `/v1/workspaces/${owner.workspaceId}/fleet-keys`, {
      token: owner.apiKey,
      body: { fleet_id: fleetId, key_name: "fixture" },
    });
    expect(minted.status).toBe(201);
    return { params: { workspace_id: owner.workspaceId, id: minted.body.id } };
  },
  "webhookEndpoints.create": async (owner) => ({
    params: { workspace_id: owner.workspaceId },
    body: { url: PUBLIC_ENDPOINT_URL, event_types: ["event.failed"] },
  }),
  "webhookEndpoints.list": async (owner) => ({ params: { workspace_id: owner.workspaceId } }),
  "webhookEndpoints.get": async (owner) => ({ params: await endpointParams(owner) }),
  "webhookEndpoints.update": async (owner) => ({
    params: await endpointParams(owner),
    body: { enabled: false },
  }),
  "webhookEndpoints.delete": async (owner) => ({ params: await endpointParams(owner) }),
  "webhookEndpoints.rotateSecret": async (owner) => ({ params: await endpointParams(owner) }),
  "webhookEndpoints.listDeliveries": async (owner) => ({ params: await endpointParams(owner) }),
  "webhookEndpoints.getDelivery": async (owner) => ({ params: await deliveryParams(owner) }),
  "webhookEndpoints.retryDelivery": async (owner) => ({ params: await deliveryParams(owner) }),
  "webhookEndpoints.replay": async (owner) => ({
    params: await endpointParams(owner),
    body: { since: Date.now() - 60_000 },
  }),
  "webhookEndpoints.test": async (owner) => ({
    params: {
      workspace_id: owner.workspaceId,
      endpoint_id: (await endpointIn(owner, { enabled: false })).id,
    },
  }),
  "apiKeys.rotate": async (owner) => ({ params: { id: await mintKeyId(owner) }, body: {} }),
  "apiKeys.delete": async (owner) => {
    const id = await mintKeyId(owner);
    await call("PATCH", `/v1/api-keys/${id}`, { token: owner.apiKey, body: { active: false } });
    return { params: { id } };
  },
};

async function mintKeyId(owner: Tenant): Promise<string> {
  const minted = await call<OutputOf<typeof createApiKey>>("POST", "/v1/api-keys", {
    token: owner.apiKey,
    body: { key_name: "fixture" },
  });
  expect(minted.status).toBe(201);
  return minted.body.id;
}

/** Removals the spec makes idempotent (a non-member answers 204), so another tenant's answers 204 too. */
const idempotentRemovals = new Set(["members.remove"]); // lists with GET /v1/tenants/me/members

/** A credential of a class the operation accepts, holding no scope. */
async function unscopedToken(op: Operation): Promise<string> {
  if (op.credentials.includes("session") || op.credentials.includes("api_key")) {
    return (await seedMember(await seedTenant(), [])).token;
  }
  return operatorToken([]);
}

/** Stand-ins for path parameters: well-formed, and naming nothing. */
const placeholders: Record<string, string> = {
  secret_name: "ABSENT_SECRET",
  provider: "slack",
  channel_id: "C1",
};

function pathOf(op: Operation, params: Record<string, string>): string {
  return op.path.replace(
    /\{(\w+)\}/g,
    (_, name: string) => params[name] ?? placeholders[name] ?? "01a2000a-0000-7000-8000-000000000000",
  );
}

function bodyFor(op: Operation): unknown {
  return Object.keys(op.body).length > 0 ? {} : undefined;
}

const guarded: Operation[] = operations.filter((op) => op.credentials.length > 0);

/** The credential classes an operation may not take, each with a way to mint one. */
const otherClasses: [string, CredentialClass, () => Promise<string>][] = [
  ["a runner token", "runner", () => seedRunnerToken()],
  ["an operator token", "operator", () => operatorToken(["runner:admin", "model:admin"])],
  ["a tenant API key", "api_key", async () => (await seedTenant()).apiKey],
];

describe.each(guarded.map((op) => [op.id, op] as const))("security of %s", (_id, op) => {
  it("refuses a request with no credential (401)", async () => {
    const response = await call(op.method, pathOf(op, {}), { body: bodyFor(op) });
    expect(response.status).toBe(401);
    expect(response.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    expect(response.body.error_code).toBe("UZ-AUTH-001");
  });

  it("refuses a credential that does not verify (401)", async () => {
    const response = await call(op.method, pathOf(op, {}), { token: "agt_tnot-a-key", body: bodyFor(op) });
    expect(response.status).toBe(401);
    expect(response.body.error_code).toBe("UZ-AUTH-002");
  });

  // A credential of each class the operation does not take: one case per class, refused alike.
  it.each(otherClasses.filter(([, credential]) => !op.credentials.includes(credential)))(
    "refuses %s (401)",
    async (_name, _credential, mint) => {
      const response = await call(op.method, pathOf(op, {}), { token: await mint(), body: bodyFor(op) });
      expect(response.status).toBe(401);
      expect(response.body.error_code).toBe("UZ-AUTH-003");
    },
  );

  if (op.scope !== null) {
    it(`refuses a caller without ${op.scope} (403 naming the scope)`, async () => {
      const response = await call(op.method, pathOf(op, {}), {
        token: await unscopedToken(op),
        body: bodyFor(op),
      });
      expect(response.status).toBe(403);
      expect(response.body.error_code).toBe("UZ-AUTH-022");
      expect(response.body.detail).toContain(op.scope);
    });
  }

  if (op.path.includes("{") && op.credentials.includes("api_key")) {
    it("answers 404 for another tenant's resource, as for an absent one", async () => {
      const fixture = otherTenantFixtures[op.id];
      expect(fixture, `add an other-tenant fixture for ${op.id}`).toBeDefined();
      const owner = await seedTenant();
      const stranger = await seedTenant();
      const { params, body } = await fixture!(owner);
      const theirs = await call(op.method, pathOf(op, params), { token: stranger.apiKey, body });
      const absent = await call(op.method, pathOf(op, {}), { token: stranger.apiKey, body });
      if (idempotentRemovals.has(op.id)) {
        // The spec makes this removal idempotent: another tenant's resource answers as an absent one, 204,
        // and is left where it was.
        expect(theirs.status).toBe(204);
        expect(absent.status).toBe(204);
        const listed = await call("GET", "/v1/tenants/me/members?limit=100", { token: owner.apiKey });
        expect(JSON.stringify(listed.body), "another tenant's removal removed it").toContain(params.user_id);
        return;
      }
      expect(theirs.status).toBe(404);
      expect(absent.status, JSON.stringify(absent.body)).toBe(404);
      expect(theirs.body.error_code).toBe(absent.body.error_code);
    });
  }
});

/** The console's transport runs the same checks: the same refusals reach /trpc as the tRPC error's problem. */
function trpcCall(op: Operation, token?: string) {
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  if (op.method === "GET") return call<TrpcRefusal>("GET", `/trpc/${op.id}`, { headers });
  return call<TrpcRefusal>("POST", `/trpc/${op.id}`, {
    headers: { ...headers, "x-fleet-csrf": "1" },
    body: {},
  });
}

describe.each(guarded.map((op) => [op.id, op] as const))("security of %s over /trpc", (_id, op) => {
  it("refuses no credential and a credential of another class (401), and a missing scope (403)", async () => {
    const none = await trpcCall(op);
    expect(none.status).toBe(401);
    expect(none.body.error.data.problem.error_code).toBe("UZ-AUTH-001");
    const wrongClass = op.credentials.includes("runner")
      ? (await seedTenant()).apiKey
      : await seedRunnerToken();
    const refused = await trpcCall(op, wrongClass);
    expect(refused.status).toBe(401);
    expect(refused.body.error.data.problem.error_code).toBe("UZ-AUTH-003");
    if (op.scope !== null) {
      const scoped = await trpcCall(op, await unscopedToken(op));
      expect(scoped.status).toBe(403);
      expect(scoped.body.error.data.problem).toMatchObject({ error_code: "UZ-AUTH-022" });
      expect(scoped.body.error.data.problem.detail).toContain(op.scope);
    }
  });
});
