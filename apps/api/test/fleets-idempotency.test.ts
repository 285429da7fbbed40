import type { OutputOf } from "@fleet/contracts";
import { IDEMPOTENCY_WINDOW_MS, type messageFleet } from "@fleet/contracts/fleets/message-fleet";
import { and, eq, fleetEvents, messageIdempotencyKeys } from "@fleet/db";
import { describe, expect, it } from "vitest";
import { installFleet } from "./fleet-fixtures.ts";
import {
  call,
  type Response,
  seedTenant,
  sessionFor,
  type Tenant,
  type TrpcResult,
  testApi,
} from "./harness.ts";

type Accepted = OutputOf<typeof messageFleet>;

function send(tenant: Tenant, fleetId: string, message: string, key?: string): Promise<Response<Accepted>> {
  return call<Accepted>("POST", `/v1/workspaces/${tenant.workspaceId}/fleets/${fleetId}/messages`, {
    token: tenant.apiKey,
    headers: key === undefined ? {} : { "idempotency-key": key },
    body: { message },
  });
}

async function eventIds(fleetId: string): Promise<string[]> {
  const api = await testApi();
  const rows = await api.database.db
    .select({ id: fleetEvents.id })
    .from(fleetEvents)
    .where(eq(fleetEvents.fleetId, fleetId));
  return rows.map((row) => row.id);
}

async function setStatus(tenant: Tenant, fleetId: string, status: string): Promise<void> {
  const path = `/v1/workspaces/${tenant.workspaceId}/fleets/${fleetId}`;
  const read = await call<{ etag: string }>("GET", path, { token: tenant.apiKey });
  const moved = await call("PATCH", path, {
    token: tenant.apiKey,
    headers: { "if-match": read.body.etag },
    body: { status },
  });
  expect(moved.status, moved.text).toBe(200);
}

describe("fleets: messages with an Idempotency-Key", () => {
  it("answers a repeat with the first event and stores one event", async () => {
    const tenant = await seedTenant();
    const fleetId = await installFleet(tenant);
    const first = await send(tenant, fleetId, "deploy the docs", "send-1");
    expect(first.status, first.text).toBe(202);
    const again = await send(tenant, fleetId, "deploy the docs", "send-1");
    expect(again.status, again.text).toBe(202);
    expect(again.body).toEqual({ status: "accepted", event_id: first.body.event_id });
    expect(await eventIds(fleetId)).toEqual([first.body.event_id]);

    // Without a key, or with another one, the same text is a new message.
    const unkeyed = await send(tenant, fleetId, "deploy the docs");
    const otherKey = await send(tenant, fleetId, "deploy the docs", "send-2");
    expect(new Set([first.body.event_id, unkeyed.body.event_id, otherKey.body.event_id]).size).toBe(3);
    expect(await eventIds(fleetId)).toHaveLength(3);
  });

  it("stores one event when 20 sends with one key arrive together", async () => {
    const tenant = await seedTenant();
    const fleetId = await installFleet(tenant);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => send(tenant, fleetId, "only once", "race-key")),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(202));
    const ids = new Set(answers.map((answer) => answer.body.event_id));
    expect(ids.size).toBe(1);
    expect(await eventIds(fleetId)).toEqual([...ids]);
  });

  it("refuses the key with a different message: 422 UZ-REQ-008, nothing stored", async () => {
    const tenant = await seedTenant();
    const fleetId = await installFleet(tenant);
    const first = await send(tenant, fleetId, "restart the worker", "k-1");
    const changed = await send(tenant, fleetId, "restart the database", "k-1");
    expect(changed.status).toBe(422);
    expect(changed.headers.get("content-type")).toContain("application/problem+json");
    expect(changed.body).toMatchObject({ error_code: "UZ-REQ-008" });
    expect(await eventIds(fleetId)).toEqual([first.body.event_id]);
  });

  it("takes keys of 1-255 printable ASCII characters and refuses others with 400", async () => {
    const tenant = await seedTenant();
    const fleetId = await installFleet(tenant);
    const longest = `${"k".repeat(254)}~`;
    expect((await send(tenant, fleetId, "a", longest)).status).toBe(202);
    expect((await send(tenant, fleetId, "b", "with space & symbols !#$%")).status).toBe(202);
    for (const bad of ["k".repeat(256), "tab\there", "caf\u00e9"]) {
      const refused = await send(tenant, fleetId, "c", bad);
      expect(refused.status, JSON.stringify(bad)).toBe(400);
      expect(refused.body).toMatchObject({ error_code: "UZ-REQ-001" });
      expect((refused.body as unknown as { detail: string }).detail).toContain("Idempotency-Key");
    }
    expect(await eventIds(fleetId)).toHaveLength(2);
  });

  it("scopes keys to the fleet, keeps another tenant's fleet a 404, and remembers only a success", async () => {
    const tenant = await seedTenant();
    const [one, two] = [await installFleet(tenant), await installFleet(tenant)];
    const a = await send(tenant, one, "same", "shared-key");
    const b = await send(tenant, two, "same", "shared-key");
    expect(b.status).toBe(202);
    expect(b.body.event_id).not.toBe(a.body.event_id);

    const stranger = await seedTenant("stranger");
    const foreign = await call("POST", `/v1/workspaces/${tenant.workspaceId}/fleets/${one}/messages`, {
      token: stranger.apiKey,
      headers: { "idempotency-key": "shared-key" },
      body: { message: "same" },
    });
    expect(foreign.status).toBe(404);

    await setStatus(tenant, two, "paused");
    const refused = await send(tenant, two, "while paused", "paused-key");
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ error_code: "UZ-FLEET-003", current_state: "paused" });
    // A repeat of a stored message still answers its event while the fleet is paused.
    expect((await send(tenant, two, "same", "shared-key")).body.event_id).toBe(b.body.event_id);
    await setStatus(tenant, two, "active");
    const accepted = await send(tenant, two, "while paused", "paused-key");
    expect(accepted.status).toBe(202);
    expect(await eventIds(two)).toHaveLength(2);
  });

  it("frees a key after 24 h and prunes expired keys of the fleet", async () => {
    const tenant = await seedTenant();
    const fleetId = await installFleet(tenant);
    const first = await send(tenant, fleetId, "old", "aging");
    await send(tenant, fleetId, "older", "forgotten");
    const api = await testApi();
    const keys = messageIdempotencyKeys;
    await api.database.db
      .update(keys)
      .set({ createdAt: Date.now() - IDEMPOTENCY_WINDOW_MS - 1000 })
      .where(eq(keys.fleetId, fleetId));

    const reused = await send(tenant, fleetId, "a new request", "aging");
    expect(reused.status).toBe(202);
    expect(reused.body.event_id).not.toBe(first.body.event_id);
    const left = await api.database.db
      .select({ key: keys.key, eventId: keys.eventId })
      .from(keys)
      .where(and(eq(keys.fleetId, fleetId)));
    expect(left).toEqual([{ key: "aging", eventId: reused.body.event_id }]);
  });

  it("shares keys between /v1 (the header) and /trpc (the input field the console sends)", async () => {
    const tenant = await seedTenant();
    const fleetId = await installFleet(tenant);
    const cookie = `fleet_session=${await sessionFor(tenant)}`;
    const input = {
      workspace_id: tenant.workspaceId,
      fleet_id: fleetId,
      message: "from the console",
      idempotency_key: "console-1",
    };
    const viaConsole = await call<TrpcResult<Accepted>>("POST", "/trpc/fleets.message", {
      headers: { cookie, "x-fleet-csrf": "1" },
      body: input,
    });
    expect(viaConsole.status, viaConsole.text).toBe(200);
    const repeat = await call<TrpcResult<Accepted>>("POST", "/trpc/fleets.message", {
      headers: { cookie, "x-fleet-csrf": "1" },
      body: input,
    });
    expect(repeat.body.result.data.event_id).toBe(viaConsole.body.result.data.event_id);
    const viaRest = await send(tenant, fleetId, "from the console", "console-1");
    expect(viaRest.body.event_id).toBe(viaConsole.body.result.data.event_id);
    expect(await eventIds(fleetId)).toHaveLength(1);
  });
});
