import type { Lease } from "@fleet/contracts";
import type { ScheduleView } from "../src/api.ts";

/** A lease as the service hands one out, for unit tests. */
export function fakeLease(overrides: Partial<Lease> & { message?: string } = {}): Lease {
  const { message = "hello", ...rest } = overrides;
  return {
    lease_id: "0190a000-0000-7000-8000-000000000001",
    fleet_id: "0190a000-0000-7000-8000-000000000002",
    workspace_id: "0190a000-0000-7000-8000-000000000003",
    event_id: "0190a000-0000-7000-8000-000000000004",
    fencing_token: 7,
    kind: "fresh",
    expires_at: Date.now() + 30_000,
    event: { event_type: "chat", actor: "user:someone", request_json: JSON.stringify({ message }) },
    fleet: { name: "Echoes", instructions: "Answer.", credentials: [], tools: [], network_hosts: [] },
    ...rest,
  };
}

/** A schedule view as the service answers a fleet's create. */
export function fakeSchedule(overrides: Partial<ScheduleView> = {}): ScheduleView {
  return {
    schedule_id: "0190a000-0000-7000-8000-0000000000aa",
    fleet_id: "0190a000-0000-7000-8000-000000000002",
    cron: "* * * * *",
    timezone: "UTC",
    message: "ping",
    source: "fleet",
    once: false,
    status: "active",
    sync: "synced",
    etag: '"etag"',
    created_at: 1,
    updated_at: 1,
    next_fire_at: 60_000,
    ...overrides,
  };
}
