import type { OutputOf } from "@fleet/contracts";
import type { listWorkspaceAudit } from "@fleet/contracts/audit/list-workspace-audit";
import { beforeAll, describe, expect, it } from "vitest";
import { timeOutGates } from "../src/services/approvals/sweep.ts";
import { answerGate, leasedFleet, readGate } from "./approval-fixtures.ts";
import { installFleet } from "./fleet-fixtures.ts";
import { type Grant, grantOf, requestGrant, revokeGrant } from "./grant-fixtures.ts";
import { call, seedMember, seedTenant, testApi } from "./harness.ts";

// The worker's API (and on PGlite its database) starts before the first test's clock runs.
beforeAll(async () => {
  await testApi();
}, 60_000);

describe("integration grants: deciding in the inbox", () => {
  it("approving the gate approves the grant in the same transaction; asking again answers it approved", async () => {
    const owner = await seedTenant();
    const fleetId = await installFleet(owner);
    const requested = await requestGrant(owner, fleetId);
    const approved = await answerGate(owner, requested.body.gate_id!, "approve");
    expect(approved.status, approved.text).toBe(200);
    const grant = await grantOf(owner, fleetId, requested.body.grant_id);
    expect(grant).toMatchObject({
      status: "approved",
      decided_by: approved.body.resolved_by,
      decided_at: approved.body.resolved_at,
    });
    const again = await requestGrant(owner, fleetId);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({
      status: "approved",
      gate_id: null,
      grant_id: requested.body.grant_id,
    });
  });

  it("denying revokes it; asking again returns it to pending with a new gate (201)", async () => {
    const owner = await seedTenant();
    const fleetId = await installFleet(owner);
    const requested = await requestGrant(owner, fleetId, "slack", "Post the deploy summary.");
    expect((await answerGate(owner, requested.body.gate_id!, "deny")).status).toBe(200);
    expect(await grantOf(owner, fleetId, requested.body.grant_id)).toMatchObject({ status: "revoked" });

    const again = await requestGrant(owner, fleetId, "slack", "Post the deploy summary, please.");
    expect(again.status, again.text).toBe(201);
    expect(again.body.grant_id).toBe(requested.body.grant_id);
    expect(again.body.gate_id).not.toBe(requested.body.gate_id);
    expect(again.body.status).toBe("pending");
    expect(await grantOf(owner, fleetId, requested.body.grant_id)).toMatchObject({
      status: "pending",
      reason: "Post the deploy summary, please.",
      decided_by: null,
      gate_id: again.body.gate_id,
    });
    // The old gate stays denied; answering the new one decides the grant.
    expect((await readGate(owner, requested.body.gate_id!)).body.status).toBe("denied");
    expect((await answerGate(owner, again.body.gate_id!, "approve")).status).toBe(200);
    expect((await grantOf(owner, fleetId, requested.body.grant_id)).status).toBe("approved");
  });

  it("a timed-out gate leaves the grant pending, and asking again opens a fresh gate", async () => {
    const api = await testApi();
    const owner = await seedTenant();
    const fleetId = await installFleet(owner);
    const requested = await requestGrant(owner, fleetId);
    const swept = await timeOutGates(api.database.db, Date.now() + 25 * 3_600_000, requested.body.gate_id!);
    expect(swept.map((closed) => closed.id)).toEqual([requested.body.gate_id]);
    expect((await grantOf(owner, fleetId, requested.body.grant_id)).status).toBe("pending");
    const again = await requestGrant(owner, fleetId);
    expect(again.status).toBe(201);
    expect(again.body.gate_id).not.toBe(requested.body.gate_id);
    expect((await readGate(owner, again.body.gate_id!)).body.status).toBe("pending");
  });

  it("a stopped fleet's grant gate is closed; the grant stays pending", async () => {
    const owner = await seedTenant();
    const fleetId = await installFleet(owner);
    const requested = await requestGrant(owner, fleetId);
    const stopped = await call("PATCH", `/v1/workspaces/${owner.workspaceId}/fleets/${fleetId}`, {
      token: owner.apiKey,
      body: { status: "stopped" },
    });
    expect(stopped.status).toBe(200);
    expect((await readGate(owner, requested.body.gate_id!)).body.status).toBe("auto_killed");
    expect((await grantOf(owner, fleetId, requested.body.grant_id)).status).toBe("pending");
  });
});

describe("integration grants: revoking", () => {
  it("revokes an approved grant with an audit row; a second revoke is 409 UZ-GRANT-002", async () => {
    const owner = await seedTenant();
    const fleetId = await installFleet(owner);
    const requested = await requestGrant(owner, fleetId);
    await answerGate(owner, requested.body.gate_id!, "approve");
    const revoked = await revokeGrant(owner, fleetId, requested.body.grant_id);
    expect(revoked.status, revoked.text).toBe(200);
    expect(revoked.body).toMatchObject({ status: "revoked", decided_by: expect.stringMatching(/^api_key:/) });
    const again = await revokeGrant(owner, fleetId, requested.body.grant_id);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ error_code: "UZ-GRANT-002", current_state: "revoked" });

    const audit = await call<OutputOf<typeof listWorkspaceAudit>>(
      "GET",
      `/v1/workspaces/${owner.workspaceId}/audit?action=integration_grant.revoke`,
      { token: owner.apiKey },
    );
    expect(audit.body.items).toHaveLength(1);
    expect(audit.body.items[0]).toMatchObject({
      action: "integration_grant.revoke",
      target: `integration_grant:${requested.body.grant_id}`,
      request_id: revoked.headers.get("x-request-id"),
      details: { fleet_id: fleetId, service: "github", was: "approved" },
    });
  });

  it("revoking a pending grant denies its open gate, so the inbox stops asking", async () => {
    const owner = await seedTenant();
    const fleetId = await installFleet(owner);
    const requested = await requestGrant(owner, fleetId);
    expect((await revokeGrant(owner, fleetId, requested.body.grant_id)).status).toBe(200);
    const closed = await readGate(owner, requested.body.gate_id!);
    expect(closed.body).toMatchObject({ status: "denied", resolved_by: expect.stringMatching(/^api_key:/) });
    const late = await answerGate(owner, requested.body.gate_id!, "approve");
    expect(late.status).toBe(409);
    expect((await grantOf(owner, fleetId, requested.body.grant_id)).status).toBe("revoked");
  });

  it("needs grant:write; an unknown grant is 404 UZ-GRANT-001", async () => {
    const owner = await seedTenant();
    const fleetId = await installFleet(owner);
    const requested = await requestGrant(owner, fleetId);
    const reader = await seedMember(owner, ["grant:read", "fleet:write"]);
    const refused = await revokeGrant(owner, fleetId, requested.body.grant_id, reader.token);
    expect(refused.status).toBe(403);
    const absent = await revokeGrant(owner, fleetId, "01a2000a-0000-7000-8000-000000000000");
    expect(absent.status).toBe(404);
    expect(absent.body.error_code).toBe("UZ-GRANT-001");
  });

  it("a revoke racing an inbox approval ends revoked or approved-then-revoked, never inconsistent", async () => {
    const api = await testApi();
    const owner = await seedTenant();
    const fleetId = await installFleet(owner);
    for (let round = 0; round < 5; round++) {
      const requested = await requestGrant(owner, fleetId, `race-${round}`);
      const [approved, revoked] = await Promise.all([
        answerGate(owner, requested.body.gate_id!, "approve"),
        revokeGrant(owner, fleetId, requested.body.grant_id),
      ]);
      expect(revoked.status, revoked.text).toBe(200);
      expect([200, 409]).toContain(approved.status);
      const grant = await grantOf(owner, fleetId, requested.body.grant_id);
      expect(grant.status).toBe("revoked");
      const gateRow = await readGate(owner, requested.body.gate_id!);
      expect(gateRow.body.status).toBe(approved.status === 200 ? "approved" : "denied");
    }
    expect(api.logs.join("\n")).not.toMatch(/deadlock/);
  });
});

describe("integration grants: the runner's read", () => {
  it("lists the leased fleet's grants while the lease runs, and nothing once it ended", async () => {
    const owner = await seedTenant();
    const leased = await leasedFleet(owner);
    const requested = await requestGrant(owner, leased.fleetId, "github");
    await answerGate(owner, requested.body.gate_id!, "approve");
    await requestGrant(owner, leased.fleetId, "aws");
    const path = `/v1/runners/me/leases/${leased.lease.lease_id}/integration-grants`;
    const read = await call<{ items: Grant[] }>("GET", path, { token: leased.runner.token });
    expect(read.status, read.text).toBe(200);
    expect(read.body.items.map((g) => [g.service, g.status])).toEqual([
      ["aws", "pending"],
      ["github", "approved"],
    ]);

    const stranger = await leasedFleet(await seedTenant());
    const foreign = await call("GET", path, { token: stranger.runner.token });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error_code).toBe("UZ-RUN-001");
    const tenantKey = await call("GET", path, { token: owner.apiKey });
    expect(tenantKey.status).toBe(401);

    const released = await call("POST", `/v1/runners/me/leases/${leased.lease.lease_id}/release`, {
      token: leased.runner.token,
      body: { fencing_token: leased.lease.fencing_token },
    });
    expect(released.status, released.text).toBeLessThan(300);
    const after = await call("GET", path, { token: leased.runner.token });
    expect(after.status).toBe(409);
    expect(after.body.error_code).toBe("UZ-RUN-005");
  });
});
