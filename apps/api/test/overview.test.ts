import type { OutputOf, WaitReason } from "@fleet/contracts";
import type { getOverview } from "@fleet/contracts/overview/get-overview";
import { eq, schedules } from "@fleet/db";
import { describe, expect, it } from "vitest";
import { gateIn } from "./approval-fixtures.ts";
import { installFleet, labelledFleet, messageFleet, uniqueLabel } from "./fleet-fixtures.ts";
import {
  call,
  operatorToken,
  seedMember,
  seedTenant,
  type Tenant,
  testApi,
  useIsolatedApi,
} from "./harness.ts";
import { acquire, enrollRunner, report } from "./runner-fixtures.ts";

type Overview = OutputOf<typeof getOverview>;

// Runners serve every tenant, and the reasons read the whole pool: this file's database holds only the
// runners it enrols.
useIsolatedApi();

async function overviewOf(tenant: Tenant, token = tenant.apiKey) {
  const read = await call<Overview>("GET", `/v1/workspaces/${tenant.workspaceId}/overview`, { token });
  expect(read.status, read.text).toBe(200);
  return read.body;
}

/** Each waiting event's reason, by event id. */
async function reasons(tenant: Tenant): Promise<Record<string, WaitReason>> {
  const body = await overviewOf(tenant);
  return Object.fromEntries(body.waiting_events.items.map((event) => [event.event_id, event.reason]));
}

async function setFleetStatus(tenant: Tenant, fleetId: string, status: string) {
  const path = `/v1/workspaces/${tenant.workspaceId}/fleets/${fleetId}`;
  const current = await call<{ etag: string }>("GET", path, { token: tenant.apiKey });
  const changed = await call("PATCH", path, {
    token: tenant.apiKey,
    headers: { "if-match": current.body.etag },
    body: { status },
  });
  expect(changed.status, changed.text).toBe(200);
}

async function setRunnerStatus(runnerId: string, status: string) {
  const changed = await call("PATCH", `/v1/fleets/runners/${runnerId}`, {
    token: await operatorToken(["runner:admin"]),
    body: { status },
  });
  expect(changed.status, changed.text).toBe(200);
}

describe("overview", () => {
  it("says why each event waits, each reason from a real state of fleets and runners", {
    timeout: 60_000,
  }, async () => {
    const tenant = await seedTenant();
    const label = uniqueLabel();
    const labelled = await labelledFleet(tenant, label);
    const paused = await installFleet(tenant, "paused-fleet");
    const first = await messageFleet(tenant, labelled, "first");
    const held = await messageFleet(tenant, paused, "held");
    await setFleetStatus(tenant, paused, "paused");

    // No runner at all, then one enrolled that never heartbeated: nothing is online.
    expect(await reasons(tenant)).toEqual({ [first]: "no_runner_online", [held]: "fleet_paused" });
    await enrollRunner({ heartbeat: false });
    expect(await reasons(tenant)).toEqual({ [first]: "no_runner_online", [held]: "fleet_paused" });

    // An online runner without the fleet's label.
    const plain = await enrollRunner({ labels: ["other"] });
    const unmatched = await overviewOf(tenant);
    expect(unmatched.waiting_events.items.find((e) => e.event_id === first)).toMatchObject({
      reason: "labels_unmatched",
      required_labels: [label],
      fleet_id: labelled,
      event_type: "chat",
    });
    expect(unmatched.runners).toMatchObject({ registered: 1, online: 1, busy: 0, offline: 0 });

    // The only online runner cordoned, then draining: online, but it takes no work.
    await setRunnerStatus(plain.runnerId, "cordoned");
    const cordoned = await overviewOf(tenant);
    expect(cordoned.waiting_events.items.map((e) => e.reason)).toEqual([
      "runners_unavailable",
      "fleet_paused",
    ]);
    expect(cordoned.runners).toMatchObject({ cordoned: 1, draining: 0 });
    await setRunnerStatus(plain.runnerId, "draining");
    expect((await reasons(tenant))[first]).toBe("runners_unavailable");

    // A runner carrying the label: the event is next in line; once it is leased, the fleet's next event
    // waits behind it and the leased one is no longer waiting.
    const matching = await enrollRunner({ labels: [label] });
    expect((await reasons(tenant))[first]).toBe("queued");
    const second = await messageFleet(tenant, labelled, "second");
    const leased = await acquire(matching);
    expect(leased.body.lease?.event_id).toBe(first);
    const busy = await overviewOf(tenant);
    expect(Object.fromEntries(busy.waiting_events.items.map((e) => [e.event_id, e.reason]))).toEqual({
      [second]: "fleet_busy",
      [held]: "fleet_paused",
    });
    expect(busy.waiting_events.total).toBe(2);
    expect(busy.runners).toMatchObject({ busy: 1 });
    // Oldest first, each with how long it has waited.
    expect(busy.waiting_events.items.map((e) => e.event_id)).toEqual([held, second]);
    for (const event of busy.waiting_events.items) {
      expect(event.waiting_ms).toBe(busy.generated_at - event.created_at);
    }

    // A run that spends the fleet's period budget: the fleet's next event waits for the next period.
    const budget = await call("PATCH", `/v1/workspaces/${tenant.workspaceId}/fleets/${labelled}/budget`, {
      token: tenant.apiKey,
      body: { period_budget_nanos: 1000 },
    });
    expect(budget.status, budget.text).toBe(200);
    const reported = await report(matching, leased.body.lease!, {
      outcome: "fleet_error",
      failure_label: "tool_crash",
      failure_detail: "x".repeat(500),
      cost_nanos: 5000,
    });
    expect(reported.status, reported.text).toBe(200);
    const spent = await overviewOf(tenant);
    expect(spent.waiting_events.items.find((e) => e.event_id === second)?.reason).toBe("budget_spent");

    // The failed run, cut short, and the spend of today (the owner holds billing:read).
    expect(spent.failed_runs.total).toBe(1);
    expect(spent.failed_runs.items[0]).toMatchObject({
      event_id: first,
      fleet_id: labelled,
      failure_label: "tool_crash",
    });
    expect(spent.failed_runs.items[0]?.failure_detail).toHaveLength(200);
    expect(spent.spend_today).toMatchObject({ cost_nanos: 5000, runs: 1 });
    expect(spent.spend_today!.since % 86_400_000).toBe(0);
  });

  it("lists pending gates oldest first with their deadlines, and failed schedule syncs", {
    timeout: 60_000,
  }, async () => {
    const tenant = await seedTenant();
    const older = await gateIn(tenant);
    const newer = await gateIn(tenant);
    const fleetId = await installFleet(tenant);
    const created = await call<{ schedule_id: string }>(
      "POST",
      `/v1/workspaces/${tenant.workspaceId}/fleets/${fleetId}/schedules`,
      { token: tenant.apiKey, body: { cron: "0 7 * * *", message: "morning" } },
    );
    expect(created.status, created.text).toBe(201);
    // A scheduler that refuses the push is the scheduler-faults suite's subject; here, the row it leaves.
    const api = await testApi();
    await api.database.db
      .update(schedules)
      .set({ sync: "failed", lastError: "scheduler unreachable" })
      .where(eq(schedules.id, created.body.schedule_id));

    const body = await overviewOf(tenant);
    expect(body.pending_approvals.total).toBe(2);
    expect(body.pending_approvals.items.map((gate) => gate.gate_id)).toEqual([older.gate_id, newer.gate_id]);
    for (const gate of body.pending_approvals.items) {
      expect(gate.timeout_at).toBeGreaterThan(gate.requested_at);
      expect(gate.fleet_name.length).toBeGreaterThan(0);
    }
    expect(body.failed_schedules).toEqual({
      total: 1,
      items: [
        expect.objectContaining({
          schedule_id: created.body.schedule_id,
          fleet_id: fleetId,
          cron: "0 7 * * *",
          last_error: "scheduler unreachable",
        }),
      ],
    });
  });

  it("shows spend only to a caller who may read billing, and another tenant's workspace is absent", async () => {
    const tenant = await seedTenant();
    const reader = await seedMember(tenant, ["fleet:read"]);
    const seen = await overviewOf(tenant, reader.token);
    expect(seen.spend_today).toBeNull();
    expect(seen.pending_approvals).toEqual({ total: 0, items: [] });
    expect((await overviewOf(tenant)).spend_today).toMatchObject({ cost_nanos: 0, runs: 0 });

    const stranger = await seedTenant("stranger");
    const foreign = await call("GET", `/v1/workspaces/${tenant.workspaceId}/overview`, {
      token: stranger.apiKey,
    });
    expect(foreign.status).toBe(404);
    expect(foreign.headers.get("content-type")).toContain("application/problem+json");
    const noScope = await seedMember(tenant, ["secret:read"]);
    const refused = await call("GET", `/v1/workspaces/${tenant.workspaceId}/overview`, {
      token: noScope.token,
    });
    expect(refused.status).toBe(403);
  });
});
