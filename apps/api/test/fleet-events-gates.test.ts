import { beforeAll, describe, expect, it } from "vitest";
import { answerGate, leasedFleet, openGate } from "./approval-fixtures.ts";
import { call, seedTenant, testApi } from "./harness.ts";

// The worker's API (and on PGlite its database) starts in a hook, not inside the first test's time.
beforeAll(async () => {
  await testApi();
}, 60_000);

interface EventGate {
  gate_id: string;
  status: string;
  tool_name: string;
  action_name: string;
  gate_kind: string;
  requested_at: number;
  timeout_at: number;
  resolved_at: number | null;
  resolved_by: string | null;
}

describe("a run's gates, from stored state", () => {
  it("the event read names the gate its run waits at, and then its answer; the gate names its event", async () => {
    const owner = await seedTenant();
    const leased = await leasedFleet(owner);
    const eventPath = `/v1/workspaces/${owner.workspaceId}/fleets/${leased.fleetId}/events/${leased.lease.event_id}`;
    const before = await call<{ gates: EventGate[] }>("GET", eventPath, { token: owner.apiKey });
    expect(before.status, before.text).toBe(200);
    expect(before.body.gates).toEqual([]);

    const opened = await openGate(leased);
    expect(opened.status, opened.text).toBe(201);
    expect(opened.body.event_id).toBe(leased.lease.event_id);
    const waiting = await call<{ status: string; gates: EventGate[] }>("GET", eventPath, {
      token: owner.apiKey,
    });
    expect(waiting.body.status).toBe("received");
    expect(waiting.body.gates).toEqual([
      {
        gate_id: opened.body.gate_id,
        status: "pending",
        tool_name: "github",
        action_name: "merge_pull_request",
        gate_kind: "repair",
        requested_at: opened.body.requested_at,
        timeout_at: opened.body.timeout_at,
        resolved_at: null,
        resolved_by: null,
      },
    ]);
    const gate = await call<{ event_id: string | null }>(
      "GET",
      `/v1/workspaces/${owner.workspaceId}/approvals/${opened.body.gate_id}`,
      { token: owner.apiKey },
    );
    expect(gate.body.event_id).toBe(leased.lease.event_id);

    const approved = await answerGate(owner, opened.body.gate_id, "approve");
    expect(approved.status, approved.text).toBe(200);
    const answered = await call<{ gates: EventGate[] }>("GET", eventPath, { token: owner.apiKey });
    expect(answered.body.gates).toMatchObject([
      { gate_id: opened.body.gate_id, status: "approved", resolved_by: approved.body.resolved_by },
    ]);
    expect(answered.body.gates[0]!.resolved_at).toEqual(expect.any(Number));
  });

  it("another tenant reads neither the event nor its gates", async () => {
    const owner = await seedTenant();
    const stranger = await seedTenant();
    const leased = await leasedFleet(owner);
    expect((await openGate(leased)).status).toBe(201);
    const foreign = await call(
      "GET",
      `/v1/workspaces/${owner.workspaceId}/fleets/${leased.fleetId}/events/${leased.lease.event_id}`,
      { token: stranger.apiKey },
    );
    expect(foreign.status).toBe(404);
    expect(foreign.text).not.toContain("merge_pull_request");
  });
});
