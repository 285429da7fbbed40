import type { OutputOf } from "@fleet/contracts";
import type { listEventFrames } from "@fleet/contracts/fleet-events/list-event-frames";
import { describe, expect, it } from "vitest";
import { labelledFleet, messageFleet, uniqueLabel } from "./fleet-fixtures.ts";
import { call, seedTenant, useIsolatedApi } from "./harness.ts";
import { acquire, enrollRunner } from "./runner-fixtures.ts";
import { publishKept } from "./stream-fixtures.ts";

type FramePage = OutputOf<typeof listEventFrames>;

// Runners lease any tenant's waiting work: this file runs on a database of its own.
useIsolatedApi();

describe("the frames an event's runs published, read by the workspace", () => {
  it("lists a run's steps oldest first by cursor for the fleet's readers; other events and ids are their own", async () => {
    const tenant = await seedTenant();
    const label = uniqueLabel();
    const fleetId = await labelledFleet(tenant, label);
    const eventId = await messageFleet(tenant, fleetId, "look into the incidents");
    const runner = await enrollRunner({ labels: [label] });
    const lease = (await acquire(runner)).body.lease!;
    expect(lease.event_id).toBe(eventId);
    const events = `/v1/workspaces/${tenant.workspaceId}/fleets/${fleetId}/events`;
    const path = `${events}/${eventId}/frames`;

    const empty = await call<FramePage>("GET", path, { token: tenant.apiKey });
    expect(empty.status, empty.text).toBe(200);
    expect(empty.body).toEqual({ items: [], next_cursor: null, retention_hours: 168 });

    await publishKept(
      tenant,
      fleetId,
      { token: runner.token, leaseId: lease.lease_id },
      [
        [{ tool_call_started: { name: "search", args_redacted: '{"q":"[redacted]"}' } }],
        [{ tool_call_completed: { name: "search", ms: 240 } }],
        [{ fleet_response_chunk: { text: "Found 3 " } }, { fleet_response_chunk: { text: "incidents" } }],
      ],
      "incidents",
    );

    const seen: FramePage["items"] = [];
    let cursor: string | null = null;
    for (let pages = 0; pages < 2; pages += 1) {
      const query: string = cursor === null ? "?limit=3" : `?limit=3&starting_after=${cursor}`;
      const page: { status: number; body: FramePage } = await call<FramePage>("GET", `${path}${query}`, {
        token: tenant.apiKey,
      });
      expect(page.status).toBe(200);
      seen.push(...page.body.items);
      cursor = page.body.next_cursor;
    }
    expect(cursor).toBeNull();
    expect(seen.map((frame) => frame.kind)).toEqual([
      "tool_call_started",
      "tool_call_completed",
      "chunk",
      "chunk",
    ]);
    expect(new Set(seen.map((frame) => frame.lease_id))).toEqual(new Set([lease.lease_id]));
    expect(seen[0]!.payload).toEqual({ name: "search", args_redacted: '{"q":"[redacted]"}' });
    const ids = seen.map((frame) => Number(frame.frame_id));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));

    // An upper-case id is the same event.
    const upper = await call<FramePage>("GET", `${events}/${eventId.toUpperCase()}/frames`, {
      token: tenant.apiKey,
    });
    expect(upper.status, upper.text).toBe(200);
    expect(upper.body.items).toEqual(seen);

    // Another event of the fleet, never leased, has none; an unknown event is 404.
    const other = await messageFleet(tenant, fleetId, "something else");
    const none = await call<FramePage>("GET", `${events}/${other}/frames`, { token: tenant.apiKey });
    expect(none.body.items).toEqual([]);
    const unknown = await call("GET", `${events}/01900000-0000-7000-8000-000000000000/frames`, {
      token: tenant.apiKey,
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error_code).toBe("UZ-EVENT-001");

    // The event under another fleet of the workspace is not there either.
    const elsewhere = await labelledFleet(tenant, uniqueLabel());
    const wrongFleet = await call(
      "GET",
      `/v1/workspaces/${tenant.workspaceId}/fleets/${elsewhere}/events/${eventId}/frames`,
      {
        token: tenant.apiKey,
      },
    );
    expect(wrongFleet.status).toBe(404);
    expect(wrongFleet.body.error_code).toBe("UZ-EVENT-001");

    for (const bad of ["limit=201", "limit=0", "starting_after=nonsense"]) {
      const refused = await call("GET", `${path}?${bad}`, { token: tenant.apiKey });
      expect(refused.status, bad).toBe(400);
      expect(refused.body.error_code).toBe("UZ-REQ-001");
    }
  });
});
