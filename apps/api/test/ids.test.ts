import type { OutputOf } from "@fleet/contracts";
import type { resolveId } from "@fleet/contracts/ids/resolve-id";
import { describe, expect, it } from "vitest";
import { leasedFleet, openGate } from "./approval-fixtures.ts";
import { labelledFleet, messageFleet, uniqueLabel } from "./fleet-fixtures.ts";
import { call, seedMember, seedTenant, type Tenant } from "./harness.ts";

type Place = OutputOf<typeof resolveId>;

async function find(id: string, token: string) {
  return call<Place & { error_code?: string }>("GET", `/v1/ids/${id}`, { token });
}

/** The tenant again, pointed at a second workspace of its own. */
async function secondWorkspace(owner: Tenant): Promise<Tenant> {
  const created = await call<{ workspace_id: string }>("POST", "/v1/workspaces", {
    token: owner.apiKey,
    body: { name: `second ${Math.random().toString(36).slice(2, 8)}` },
  });
  expect(created.status, created.text).toBe(201);
  return { ...owner, workspaceId: created.body.workspace_id };
}

describe("GET /v1/ids/{id}: where an id belongs", () => {
  it("finds a fleet, an event and a gate in whichever workspace of the tenant holds them", async () => {
    const owner = await seedTenant();
    const second = await secondWorkspace(owner);
    // Labelled for no runner: its message waits, and no other test's runner leases it.
    const fleetId = await labelledFleet(second, uniqueLabel());
    const eventId = await messageFleet(second, fleetId);
    const leased = await leasedFleet(second);
    const opened = await openGate(leased);
    expect(opened.status, opened.text).toBe(201);
    const gateId = opened.body.gate_id;

    const fleet = await find(fleetId, owner.apiKey);
    expect(fleet.status, fleet.text).toBe(200);
    expect(fleet.body).toEqual({
      kind: "fleet",
      id: fleetId,
      workspace_id: second.workspaceId,
      fleet_id: fleetId,
      event_id: null,
    });
    expect((await find(eventId, owner.apiKey)).body).toEqual({
      kind: "event",
      id: eventId,
      workspace_id: second.workspaceId,
      fleet_id: fleetId,
      event_id: eventId,
    });
    expect((await find(gateId, owner.apiKey)).body).toEqual({
      kind: "gate",
      id: gateId,
      workspace_id: second.workspaceId,
      fleet_id: leased.fleetId,
      event_id: leased.lease.event_id,
    });
    // Upper case is the same id, answered as stored.
    const upper = await find(gateId.toUpperCase(), owner.apiKey);
    expect(upper.status, upper.text).toBe(200);
    expect(upper.body.id).toBe(gateId);
  });

  it("answers another tenant's ids as unknown ones: 404 UZ-ID-001, saying nothing of them", async () => {
    const owner = await seedTenant();
    const stranger = await seedTenant();
    const fleetId = await labelledFleet(owner, uniqueLabel());
    const eventId = await messageFleet(owner, fleetId);
    const opened = await openGate(await leasedFleet(owner));
    for (const id of [fleetId, eventId, opened.body.gate_id, "01a2000a-0000-7000-8000-000000000000"]) {
      const theirs = await find(id, stranger.apiKey);
      expect(theirs.status, theirs.text).toBe(404);
      expect(theirs.headers.get("content-type")).toMatch(/^application\/problem\+json/);
      expect(theirs.body.error_code).toBe("UZ-ID-001");
      expect(theirs.text).not.toContain(owner.workspaceId);
    }
  });

  it("finds only the kinds the caller may read; any other is 404 as if unknown", async () => {
    const owner = await seedTenant();
    const fleetId = await labelledFleet(owner, uniqueLabel());
    const opened = await openGate(await leasedFleet(owner));
    const gateId = opened.body.gate_id;
    const approver = await seedMember(owner, ["approval:read", "approval:resolve"]);
    const reader = await seedMember(owner, ["fleet:read"]);
    const nobody = await seedMember(owner, []);
    expect((await find(gateId, approver.token)).status).toBe(200);
    expect((await find(fleetId, approver.token)).body.error_code).toBe("UZ-ID-001");
    expect((await find(fleetId, reader.token)).status).toBe(200);
    expect((await find(gateId, reader.token)).body.error_code).toBe("UZ-ID-001");
    for (const id of [fleetId, gateId]) {
      const refused = await find(id, nobody.token);
      expect(refused.status).toBe(404);
      expect(refused.body.error_code).toBe("UZ-ID-001");
    }
  });

  it("refuses what is not a UUIDv7 with 400, hostile spellings included, never a 500", async () => {
    const owner = await seedTenant();
    const hostile = [
      "not-an-id",
      "0193ab12-0000-4000-8000-000000000000", // a UUIDv4
      "%00",
      "%ED%A0%80", // a lone surrogate, percent-encoded
      "x".repeat(4_000),
      "01a2000a-0000-7000-8000-000000000000%00",
      "null",
    ];
    for (const id of hostile) {
      const refused = await call<{ error_code: string }>("GET", `/v1/ids/${id}`, { token: owner.apiKey });
      expect(refused.status, `${id.slice(0, 40)}: ${refused.text}`).toBe(400);
      expect(refused.body.error_code).toBe("UZ-REQ-001");
    }
  });
});
