import type { Lease } from "@fleet/contracts";
import type { RunnerGate, ScheduleView } from "../src/api.ts";
import type { LeaseApi } from "../src/lease-worker.ts";

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

/** A gate as the service answers its runner: pending unless overridden. */
export function fakeGate(overrides: Partial<RunnerGate> = {}): RunnerGate {
  return {
    gate_id: "0190a000-0000-7000-8000-0000000000bb",
    fleet_id: "0190a000-0000-7000-8000-000000000002",
    workspace_id: "0190a000-0000-7000-8000-000000000003",
    action_id: "6f1c2a4e-0000-5000-8000-000000000000",
    event_id: null,
    requested_at: 1,
    timeout_at: 3_600_001,
    updated_at: 1,
    fleet_name: "Echoes",
    tool_name: "echo",
    action_name: "deploy",
    gate_kind: "approval",
    proposed_action: "deploy v2",
    evidence: {},
    blast_radius: "none (demo)",
    detail: "demo",
    status: "pending",
    resolved_by: null,
    resolved_at: null,
    reason: null,
    amended_action: null,
    rule: null,
    high_blast: false,
    required_approvals: 1,
    approvals: [],
    escalated_at: null,
    extended_at: null,
    extended_by: null,
    extension_reason: null,
    outcome: null,
    approved_action: null,
    failure_label: null,
    ...overrides,
  };
}

/** The lease routes as a service that accepts everything answers them; a test overrides what it watches. */
export function fakeLeaseApi(overrides: Partial<LeaseApi> = {}): LeaseApi {
  return {
    renew: async (lease) => ({ lease_id: lease.lease_id, expires_at: Date.now() + 30_000 }),
    release: async () => ({ released: true }),
    report: async () => ({}),
    activity: async () => ({ ok: true }),
    writeMemory: async () => ({ key: "k", content: "c", category: "general", created_at: 1, updated_at: 1 }),
    createSchedule: async () => fakeSchedule(),
    openGate: async (_lease, gate) => fakeGate({ action_id: gate.action_id }),
    waitGate: async (_lease, gateId) => fakeGate({ gate_id: gateId }),
    markGateRan: async (_lease, gateId) => ({ gate_id: gateId, action_ran_at: 1, first: true }),
    searchMemories: async () => ({ items: [] }),
    context: async () => ({ turns: [], tokens: 0, max_tokens: 8_000 }),
    credentials: async (lease) => ({ lease_id: lease.lease_id, credentials: [], expires_at: 0 }),
    model: () => ({
      baseUrl: "http://127.0.0.1:9/v1/runners/me/leases/x/model",
      fetch: async () => new Response("{}", { status: 503 }),
    }),
    ...overrides,
  };
}
