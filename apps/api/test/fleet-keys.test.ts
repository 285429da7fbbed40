import type { Operation, OutputOf, ProblemBody } from "@fleet/contracts";
import type { createFleetKey } from "@fleet/contracts/fleet-keys/create-fleet-key";
import type { listFleetKeys } from "@fleet/contracts/fleet-keys/list-fleet-keys";
import { beforeAll, describe, expect, it } from "vitest";
import { operations } from "../src/router/root.ts";
import { installFleet, messageFleet } from "./fleet-fixtures.ts";
import { call, callAt, databaseKind, seedMember, seedTenant, type Tenant, testApi } from "./harness.ts";
import { useSecondInstance } from "./instances.ts";
import { type Frame, fleetStream, openTail } from "./stream-fixtures.ts";

type Minted = OutputOf<typeof createFleetKey> & Partial<ProblemBody>;
type Page = OutputOf<typeof listFleetKeys>;

beforeAll(async () => {
  await testApi();
}, 60_000);

async function mintFleetKey(tenant: Tenant, fleetId: string, token = tenant.apiKey) {
  return call<Minted>("POST", `/v1/workspaces/${tenant.workspaceId}/fleet-keys`, {
    token,
    body: { fleet_id: fleetId, key_name: "ci-job" },
  });
}

/** A tenant with two fleets and a fleet key bound to the first. */
async function boundKey() {
  const tenant = await seedTenant();
  const fleetId = await installFleet(tenant, "bound");
  const otherFleetId = await installFleet(tenant, "other");
  const minted = await mintFleetKey(tenant, fleetId);
  expect(minted.status, minted.text).toBe(201);
  return { tenant, fleetId, otherFleetId, key: minted.body.key, id: minted.body.id };
}

const fleetPath = (tenant: Tenant, fleetId: string, rest = "") =>
  `/v1/workspaces/${tenant.workspaceId}/fleets/${fleetId}${rest}`;

describe("fleet keys: minting, listing, deleting", () => {
  it("mints an agt_a key bound to one fleet, shown once; lists it apart from the API keys", async () => {
    const tenant = await seedTenant();
    const fleetId = await installFleet(tenant);
    const minted = await mintFleetKey(tenant, fleetId);
    expect(minted.status, minted.text).toBe(201);
    expect(minted.headers.get("cache-control")).toBe("no-store");
    expect(minted.body.key).toMatch(/^agt_a[A-Za-z0-9_-]{43}$/);
    expect(minted.body).toMatchObject({
      key_name: "ci-job",
      fleet_id: fleetId,
      workspace_id: tenant.workspaceId,
      key_prefix: minted.body.key.slice(0, 13),
      rate_limit: null,
      expires_at: null,
    });

    const listed = await call<Page>("GET", `/v1/workspaces/${tenant.workspaceId}/fleet-keys`, {
      token: tenant.apiKey,
    });
    expect(listed.status).toBe(200);
    expect(listed.body.total).toBe(1);
    expect(listed.body.items[0]).toMatchObject({ id: minted.body.id, fleet_id: fleetId, last_used_at: null });
    expect(listed.text).not.toContain(minted.body.key);
    const narrowed = await call<Page>(
      "GET",
      `/v1/workspaces/${tenant.workspaceId}/fleet-keys?fleet_id=${await installFleet(tenant)}`,
      { token: tenant.apiKey },
    );
    expect(narrowed.body.total).toBe(0);
    const apiKeys = await call<{ total: number }>("GET", "/v1/api-keys", { token: tenant.apiKey });
    expect(apiKeys.body.total).toBe(1); // the bootstrap key only
    for (const [method, suffix, body] of [
      ["PATCH", "", { active: false }],
      ["POST", "/rotate", {}],
    ] as const) {
      const viaApiKeys = await call(method, `/v1/api-keys/${minted.body.id}${suffix}`, {
        token: tenant.apiKey,
        body,
      });
      expect(viaApiKeys.status).toBe(404);
    }

    const audit = await call<{ items: { action: string; target: string }[] }>(
      "GET",
      "/v1/tenants/me/audit?limit=50",
      { token: tenant.apiKey },
    );
    expect(audit.body.items.map((row) => row.action)).toContain("fleet_key.mint");
    expect(audit.text).not.toContain(minted.body.key);
  });

  it("refuses a fleet of another workspace or tenant as absent, and bad input with UZ-REQ-001", async () => {
    const tenant = await seedTenant();
    const stranger = await seedTenant();
    const theirs = await mintFleetKey(tenant, await installFleet(stranger));
    expect(theirs.status).toBe(404);
    expect(theirs.body.error_code).toBe("UZ-FLEET-001");
    const blank = await call("POST", `/v1/workspaces/${tenant.workspaceId}/fleet-keys`, {
      token: tenant.apiKey,
      body: { key_name: "x" },
    });
    expect(blank.status).toBe(400);
    expect(blank.body.error_code).toBe("UZ-REQ-001");
    const listed = await call<Page>("GET", `/v1/workspaces/${tenant.workspaceId}/fleet-keys`, {
      token: tenant.apiKey,
    });
    expect(listed.body.total).toBe(0);
  });

  it("a fleet key minted by a key takes its quota and expiry", async () => {
    const tenant = await seedTenant();
    const expiry = Date.now() + 86_400_000;
    const parent = await call<{ key: string }>("POST", "/v1/api-keys", {
      token: tenant.apiKey,
      body: { key_name: "parent", rate_limit: 42, expires_at: expiry },
    });
    const minted = await mintFleetKey(tenant, await installFleet(tenant), parent.body.key);
    expect(minted.status, minted.text).toBe(201);
    expect(minted.body).toMatchObject({ rate_limit: 42, expires_at: expiry });
  });

  it("deleting ends the key at once, its open stream too; unknown ids are 404 UZ-FLEETKEY-001", async () => {
    const { tenant, fleetId, key, id } = await boundKey();
    expect((await call("GET", fleetPath(tenant, fleetId, "/events"), { token: key })).status).toBe(200);
    const stream = await openTail(fleetStream(tenant, fleetId), key);
    const deleted = await call("DELETE", `/v1/workspaces/${tenant.workspaceId}/fleet-keys/${id}`, {
      token: tenant.apiKey,
    });
    expect(deleted.status).toBe(204);
    const refused = await call("GET", fleetPath(tenant, fleetId, "/events"), { token: key });
    expect(refused.status).toBe(401);
    const frame: Frame = await stream.next((f) => f.event === "access_revoked", 5_000);
    expect(frame.data).toEqual({ reason: "credential_revoked" });
    stream.close();
    const again = await call("DELETE", `/v1/workspaces/${tenant.workspaceId}/fleet-keys/${id}`, {
      token: tenant.apiKey,
    });
    expect(again.status).toBe(404);
    expect(again.body.error_code).toBe("UZ-FLEETKEY-001");
  });
});

describe("fleet keys: what one may do", () => {
  it("sends its fleet messages, reads its events and live tail, requests its grants", async () => {
    const { tenant, fleetId, key } = await boundKey();
    const sent = await call<{ event_id: string }>("POST", fleetPath(tenant, fleetId, "/messages"), {
      token: key,
      body: { message: "from CI" },
    });
    expect(sent.status, sent.text).toBe(202);
    const list = await call<{ items: { event_id: string }[] }>("GET", fleetPath(tenant, fleetId, "/events"), {
      token: key,
    });
    expect(list.status).toBe(200);
    expect(list.body.items.map((item) => item.event_id)).toContain(sent.body.event_id);
    const one = await call("GET", fleetPath(tenant, fleetId, `/events/${sent.body.event_id}`), {
      token: key,
    });
    expect(one.status).toBe(200);
    const stream = await openTail(fleetStream(tenant, fleetId), key);
    stream.close();
    const grant = await call("POST", fleetPath(tenant, fleetId, "/integration-requests"), {
      token: key,
      body: { service: "github", reason: "CI needs it" },
    });
    expect(grant.status, grant.text).toBe(201);
  });

  it("answers another fleet of its workspace, or another workspace, as absent (404)", async () => {
    const { tenant, otherFleetId, key } = await boundKey();
    const otherEvent = await messageFleet(tenant, otherFleetId);
    const cases: [string, string, unknown, string][] = [
      ["POST", fleetPath(tenant, otherFleetId, "/messages"), { message: "x" }, "UZ-FLEET-001"],
      ["GET", fleetPath(tenant, otherFleetId, "/events"), undefined, "UZ-FLEET-001"],
      ["GET", fleetPath(tenant, otherFleetId, `/events/${otherEvent}`), undefined, "UZ-FLEET-001"],
      ["GET", fleetPath(tenant, otherFleetId, "/events/stream"), undefined, "UZ-FLEET-001"],
      [
        "POST",
        fleetPath(tenant, otherFleetId, "/integration-requests"),
        { service: "github", reason: "x" },
        "UZ-FLEET-001",
      ],
    ];
    const stranger = await seedTenant();
    const strangerFleet = await installFleet(stranger);
    cases.push(["GET", fleetPath(stranger, strangerFleet, "/events"), undefined, "UZ-WORKSPACE-002"]);
    for (const [method, path, body, code] of cases) {
      const response = await call(method, path, { token: key, body });
      expect(response.status, `${method} ${path}`).toBe(404);
      expect(response.body.error_code, `${method} ${path}`).toBe(code);
    }
    // What it would have changed is untouched: the other fleet got no message, no grant.
    const events = await call<{ items: unknown[] }>("GET", fleetPath(tenant, otherFleetId, "/events"), {
      token: tenant.apiKey,
    });
    expect(events.body.items).toHaveLength(1);
  });

  it("acts with no more than its creator's fleet scopes", async () => {
    const tenant = await seedTenant();
    const fleetId = await installFleet(tenant);
    const reader = await seedMember(tenant, ["fleet:read", "fleetkey:write"]);
    const minted = await mintFleetKey(tenant, fleetId, reader.token);
    expect(minted.status, minted.text).toBe(201);
    expect(
      (await call("GET", fleetPath(tenant, fleetId, "/events"), { token: minted.body.key })).status,
    ).toBe(200);
    const send = await call("POST", fleetPath(tenant, fleetId, "/messages"), {
      token: minted.body.key,
      body: { message: "x" },
    });
    expect(send.status).toBe(403);
    expect(send.body).toMatchObject({ error_code: "UZ-AUTH-022" });
    expect(send.body.detail).toContain("fleet:write");
  });

  it("ends with its creator's membership, and with its fleet", async () => {
    const tenant = await seedTenant();
    const fleetId = await installFleet(tenant);
    const member = await seedMember(tenant, ["fleet:write", "fleetkey:write"]);
    const minted = await mintFleetKey(tenant, fleetId, member.token);
    const events = fleetPath(tenant, fleetId, "/events");
    expect((await call("GET", events, { token: minted.body.key })).status).toBe(200);
    const removed = await call("DELETE", `/v1/tenants/me/members/${member.userId}`, { token: tenant.apiKey });
    expect(removed.status).toBe(204);
    expect((await call("GET", events, { token: minted.body.key })).status).toBe(401);

    const { tenant: owner, fleetId: doomed, key } = await boundKey();
    const gone = await call("DELETE", fleetPath(owner, doomed), { token: owner.apiKey });
    expect(gone.status, gone.text).toBeLessThan(300);
    const after = await call("GET", fleetPath(owner, doomed, "/events"), { token: key });
    expect([401, 404]).toContain(after.status);
  });

  it("is refused every other operation exactly as a credential without its scope (403 UZ-AUTH-022)", async () => {
    const { tenant, fleetId, key } = await boundKey();
    const reachable = new Set([
      "fleets.message",
      "fleetEvents.list",
      "fleetEvents.get",
      "fleetEvents.listFrames",
      "fleetEvents.stream",
      "integrationGrants.request",
    ]);
    const others = operations.filter(
      (op: Operation) => op.credentials.includes("api_key") && !reachable.has(op.id),
    );
    expect(others.length).toBeGreaterThan(40);
    for (const op of others) {
      const path = op.path
        .replace("{workspace_id}", tenant.workspaceId)
        .replace("{fleet_id}", fleetId)
        .replace(/\{\w+\}/g, "01a2000a-0000-7000-8000-000000000000");
      const body = Object.keys(op.body).length > 0 ? {} : undefined;
      const response = await call(op.method, path, { token: key, body });
      expect(response.status, `${op.id}: ${response.text}`).toBe(403);
      expect(response.body.error_code, op.id).toBe("UZ-AUTH-022");
      if (op.scope !== null) expect(response.body.detail, op.id).toContain(op.scope);
    }
  });
});

describe.runIf(databaseKind === "postgres")("fleet keys across two instances", () => {
  const instances = useSecondInstance();

  it("refuses a fleet key deleted through one instance on the other's very next request", async () => {
    const { first, second } = instances();
    for (let round = 0; round < 5; round++) {
      const { tenant, fleetId, key, id } = await boundKey();
      const events = fleetPath(tenant, fleetId, "/events");
      for (let read = 0; read < 2; read++) {
        expect((await callAt(second.baseUrl, "GET", events, { token: key })).status).toBe(200);
      }
      const deleted = await callAt(
        first.baseUrl,
        "DELETE",
        `/v1/workspaces/${tenant.workspaceId}/fleet-keys/${id}`,
        {
          token: tenant.apiKey,
        },
      );
      expect(deleted.status).toBe(204);
      expect((await callAt(second.baseUrl, "GET", events, { token: key })).status).toBe(401);
    }
  });
});
