import { approvalGates, eq } from "@fleet/db";
import { beforeAll, describe, expect, it } from "vitest";
import { gateBody, leasedFleet, openGate, type RunnerGate } from "./approval-fixtures.ts";
import { call, seedTenant, testApi } from "./harness.ts";

// The worker's API (and on PGlite its database) starts in a hook, not inside the first test's time.
beforeAll(async () => {
  await testApi();
}, 60_000);

describe("opening a gate", () => {
  it("answers 201 with the pending gate, and 200 with the same gate for the same action_id", async () => {
    const owner = await seedTenant();
    const leased = await leasedFleet(owner);
    const body = gateBody(leased.lease, { timeout_ms: 120_000 });
    const path = `/v1/runners/me/leases/${leased.lease.lease_id}/gates`;
    const first = await call<RunnerGate>("POST", path, { token: leased.runner.token, body });
    expect(first.status, first.text).toBe(201);
    expect(first.body).toMatchObject({
      fleet_id: leased.fleetId,
      workspace_id: owner.workspaceId,
      action_id: body.action_id,
      status: "pending",
      outcome: null,
      resolved_by: null,
      evidence: body.evidence,
    });
    expect(first.body.timeout_at - first.body.requested_at).toBe(120_000);
    const again = await call<RunnerGate>("POST", path, { token: leased.runner.token, body });
    expect(again.status, again.text).toBe(200);
    expect(again.body.gate_id).toBe(first.body.gate_id);
  });

  it("refuses a gate for a fleet that was stopped while its runner still holds the lease", async () => {
    const owner = await seedTenant();
    const leased = await leasedFleet(owner);
    const stopped = await call("PATCH", `/v1/workspaces/${owner.workspaceId}/fleets/${leased.fleetId}`, {
      token: owner.apiKey,
      body: { status: "stopped" },
    });
    expect(stopped.status, stopped.text).toBe(200);
    const opened = await openGate(leased);
    expect(opened.status, opened.text).toBe(409);
    expect(opened.body).toMatchObject({ error_code: "UZ-FLEET-003", current_state: "stopped" });
    const inbox = await call<{ items: unknown[] }>("GET", `/v1/workspaces/${owner.workspaceId}/approvals`, {
      token: owner.apiKey,
    });
    expect(inbox.body.items).toEqual([]);
  });

  it("masks the fleet's declared secrets out of everything the inbox shows", async () => {
    const owner = await seedTenant();
    const secret = "ghp_live_0123456789abcdef";
    const stored = await call("POST", `/v1/workspaces/${owner.workspaceId}/secrets`, {
      token: owner.apiKey,
      body: { name: "GITHUB_TOKEN", data: { token: secret } },
    });
    expect(stored.status, stored.text).toBe(201);
    const leased = await leasedFleet(owner, { credentials: ["GITHUB_TOKEN"] });
    const opened = await openGate(leased, {
      proposed_action: `push with ${secret}`,
      detail: `token ${secret}`,
      blast_radius: `anything ${secret} reaches`,
      evidence: { header: `Bearer ${secret}`, nested: [{ again: secret }] },
    });
    expect(opened.status, opened.text).toBe(201);
    expect(opened.text).not.toContain(secret);
    expect(opened.body.proposed_action).toBe("push with [secret:GITHUB_TOKEN]");
    expect(opened.body.evidence).toEqual({
      header: "Bearer [secret:GITHUB_TOKEN]",
      nested: [{ again: "[secret:GITHUB_TOKEN]" }],
    });
    const read = await call("GET", `/v1/workspaces/${owner.workspaceId}/approvals/${opened.body.gate_id}`, {
      token: owner.apiKey,
    });
    expect(read.status, read.text).toBe(200);
    expect(read.text).not.toContain(secret);
  });

  it("defaults the timeout to an hour and refuses more than 24 h", async () => {
    const leased = await leasedFleet(await seedTenant());
    const opened = await openGate(leased);
    expect(opened.body.timeout_at - opened.body.requested_at).toBe(3_600_000);
    const tooLong = await openGate(leased, { timeout_ms: 24 * 3_600_000 + 1 });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body).toMatchObject({ error_code: "UZ-REQ-001" });
  });

  it("refuses the kind integration_grant, which only a grant request opens", async () => {
    const leased = await leasedFleet(await seedTenant());
    const refused = await openGate(leased, { gate_kind: "integration_grant" });
    expect(refused.status, refused.text).toBe(400);
    expect(refused.body).toMatchObject({ error_code: "UZ-REQ-001" });
    expect(JSON.stringify(refused.body)).toContain("reserved");
  });

  it("refuses a superseded fencing token (409 UZ-RUN-005) and opens nothing", async () => {
    const leased = await leasedFleet(await seedTenant());
    const stale = await openGate(leased, { fencing_token: leased.lease.fencing_token - 1 });
    expect(stale.status, stale.text).toBe(409);
    expect(stale.body).toMatchObject({ error_code: "UZ-RUN-005" });
    const api = await testApi();
    const rows = await api.database.db
      .select()
      .from(approvalGates)
      .where(eq(approvalGates.fleetId, leased.fleetId));
    expect(rows).toHaveLength(0);
  });

  it("refuses evidence over 64 KiB with 413", async () => {
    const leased = await leasedFleet(await seedTenant());
    const big = await openGate(leased, { evidence: { log: "x".repeat(70 * 1024) } });
    expect(big.status, big.text).toBe(413);
    expect(big.body).toMatchObject({ error_code: "UZ-REQ-006" });
    const notObject = await openGate(leased, { evidence: ["a"] });
    expect(notObject.status).toBe(400);
  });
});
