import { beforeAll, describe, expect, it } from "vitest";
import { answerGate, leasedFleet, openGate, type RunnerGate, waitFor } from "./approval-fixtures.ts";
import { call, seedMember, seedTenant, sleep, testApi } from "./harness.ts";

// The worker's API (and on PGlite its database) starts in a hook, not inside the first test's time.
beforeAll(async () => {
  await testApi();
}, 60_000);

describe("waiting for the answer", () => {
  it("is woken by the decision at once, and receives the amended action", async () => {
    const owner = await seedTenant();
    const leased = await leasedFleet(owner);
    const { body: gate } = await openGate(leased);
    const waiting = waitFor(leased, gate.gate_id, 10_000).then((r) => ({ r, at: Date.now() }));
    await sleep(300);
    const decided = await answerGate(owner, gate.gate_id, "approve", {
      reason: "looks right",
      amended_action: "merge PR #42 with squash",
    });
    const answeredAt = Date.now();
    expect(decided.status, decided.text).toBe(200);
    const { r, at } = await waiting;
    expect(r.status, r.text).toBe(200);
    expect(at - answeredAt).toBeLessThan(1_000);
    expect(r.body).toMatchObject({
      status: "approved",
      outcome: "approved",
      reason: "looks right",
      resolved_by: expect.stringMatching(/^api_key:/),
      proposed_action: "merge PR #42 into main",
      amended_action: "merge PR #42 with squash",
      approved_action: "merge PR #42 with squash",
      failure_label: null,
    });
  });

  it("reads a denial as a refusal with failure_label approval_denied; a person's answer names the user", async () => {
    const owner = await seedTenant();
    const approver = await seedMember(owner, ["approval:resolve", "approval:read"]);
    const leased = await leasedFleet(owner);
    const { body: gate } = await openGate(leased);
    const denied = await call("POST", `/v1/workspaces/${owner.workspaceId}/approvals/${gate.gate_id}/deny`, {
      token: approver.token,
      body: { reason: "not now" },
    });
    expect(denied.status, denied.text).toBe(200);
    expect(denied.body).toMatchObject({ outcome: "denied", resolved_by: `user:${approver.userId}` });
    const read = await waitFor(leased, gate.gate_id, 0);
    expect(read.body).toMatchObject({
      outcome: "denied",
      approved_action: null,
      failure_label: "approval_denied",
    });
  });

  it("without a policy a gate takes the default rule: anyone, one approval, shown in every view", async () => {
    const owner = await seedTenant();
    const approver = await seedMember(owner, ["approval:resolve", "approval:read"]);
    const leased = await leasedFleet(owner);
    const { body: gate } = await openGate(leased, { timeout_ms: 90_000 });
    expect(gate).toMatchObject({
      rule: null,
      required_approvals: 1,
      approvals: [],
      escalated_at: null,
      extended_at: null,
    });
    expect(gate.timeout_at - gate.requested_at).toBe(90_000);
    const approved = await answerGate(owner, gate.gate_id, "approve");
    expect(approved.body).toMatchObject({ outcome: "approved", required_approvals: 1 });
    expect(approved.body.approvals).toEqual([
      { by: approved.body.resolved_by, user_id: owner.userId, at: approved.body.resolved_at, counted: true },
    ]);
    const views = [
      (await waitFor(leased, gate.gate_id, 0)).body,
      (
        await call<RunnerGate>("GET", `/v1/workspaces/${owner.workspaceId}/approvals/${gate.gate_id}`, {
          token: approver.token,
        })
      ).body,
    ];
    for (const view of views)
      expect(view).toMatchObject({ status: "approved", approvals: approved.body.approvals });
  });

  it("ends a wait with the gate still pending when wait_ms passes", async () => {
    const leased = await leasedFleet(await seedTenant());
    const { body: gate } = await openGate(leased);
    const started = Date.now();
    const read = await waitFor(leased, gate.gate_id, 400);
    expect(read.status).toBe(200);
    expect(read.body.status).toBe("pending");
    expect(Date.now() - started).toBeGreaterThanOrEqual(350);
  });

  it("closes a fleet's pending gates as auto_killed when it is stopped", async () => {
    const owner = await seedTenant();
    const leased = await leasedFleet(owner);
    const { body: gate } = await openGate(leased);
    const waiting = waitFor(leased, gate.gate_id, 10_000);
    await sleep(200);
    const stopped = await call("PATCH", `/v1/workspaces/${owner.workspaceId}/fleets/${leased.fleetId}`, {
      token: owner.apiKey,
      body: { status: "stopped" },
    });
    expect(stopped.status, stopped.text).toBe(200);
    const read = await waiting;
    expect(read.body).toMatchObject({
      outcome: "auto_killed",
      resolved_by: "system:fleet_stopped",
      failure_label: "approval_auto_killed",
    });
    const late = await answerGate(owner, gate.gate_id, "approve");
    expect(late.status).toBe(409);
    expect(late.body).toMatchObject({ error_code: "UZ-APPROVAL-005", outcome: "auto_killed" });
  });

  it("keeps a deleted fleet's gates, closed as auto_killed", async () => {
    const owner = await seedTenant();
    const leased = await leasedFleet(owner);
    const { body: gate } = await openGate(leased);
    const deleted = await call("DELETE", `/v1/workspaces/${owner.workspaceId}/fleets/${leased.fleetId}`, {
      token: owner.apiKey,
    });
    expect(deleted.status, deleted.text).toBe(204);
    const read = await waitFor(leased, gate.gate_id, 0);
    expect(read.body).toMatchObject({ outcome: "auto_killed", resolved_by: "system:fleet_deleted" });
  });
});
