import type { OutputOf } from "@fleet/contracts";
import type { listWorkspaceAudit } from "@fleet/contracts/audit/list-workspace-audit";
import { beforeAll, describe, expect, it } from "vitest";
import { timeOutGates } from "../src/services/approvals/sweep.ts";
import { leasedFleet, type RunnerGate } from "./approval-fixtures.ts";
import { installFleet } from "./fleet-fixtures.ts";
import { type Grant, listGrants, requestGrant } from "./grant-fixtures.ts";
import { call, seedMember, seedTenant, type Tenant, testApi } from "./harness.ts";

// The worker's API (and on PGlite its database) starts before the first test's clock runs.
beforeAll(async () => {
  await testApi();
}, 60_000);

function gate(owner: Tenant, gateId: string) {
  return call<RunnerGate>("GET", `/v1/workspaces/${owner.workspaceId}/approvals/${gateId}`, {
    token: owner.apiKey,
  });
}

function answer(owner: Tenant, gateId: string, verb: "approve" | "deny") {
  return call("POST", `/v1/workspaces/${owner.workspaceId}/approvals/${gateId}/${verb}`, {
    token: owner.apiKey,
    body: {},
  });
}

function revoke(owner: Tenant, fleetId: string, grantId: string, token = owner.apiKey) {
  return call<Grant & { error_code?: string }>(
    "DELETE",
    `/v1/workspaces/${owner.workspaceId}/fleets/${fleetId}/integration-grants/${grantId}`,
    { token },
  );
}

async function grantOf(owner: Tenant, fleetId: string, grantId: string): Promise<Grant> {
  const page = await listGrants(owner, fleetId, "?limit=200");
  expect(page.status, page.text).toBe(200);
  const found = page.body.items.find((item) => item.grant_id === grantId);
  expect(found, `grant ${grantId} listed`).toBeDefined();
  return found!;
}

describe("integration grants: requesting", () => {
  it("creates a pending grant with an integration_grant gate in the inbox (201); asking again answers it (200)", async () => {
    const owner = await seedTenant();
    const fleetId = await installFleet(owner, "grant-asker");
    const first = await requestGrant(owner, fleetId, "github", "Open pull requests on the app repo.");
    expect(first.status, first.text).toBe(201);
    expect(first.body).toMatchObject({ status: "pending", fleet_id: fleetId, service: "github" });
    expect(first.body.message).toMatch(/approvals inbox/);
    expect(first.body.gate_id).toMatch(/^[0-9a-f-]{36}$/);

    const inbox = await call<{ items: RunnerGate[] }>(
      "GET",
      `/v1/workspaces/${owner.workspaceId}/approvals?gate_kind=integration_grant&fleet_id=${fleetId}`,
      { token: owner.apiKey },
    );
    expect(inbox.status, inbox.text).toBe(200);
    expect(inbox.body.items).toHaveLength(1);
    expect(inbox.body.items[0]).toMatchObject({
      gate_id: first.body.gate_id,
      gate_kind: "integration_grant",
      fleet_name: "grant-asker",
      tool_name: "github",
      status: "pending",
      detail: "Open pull requests on the app repo.",
      evidence: { grant_id: first.body.grant_id, service: "github" },
    });

    const again = await requestGrant(owner, fleetId, "github", "Another reason.");
    expect(again.status, again.text).toBe(200);
    expect(again.body).toMatchObject({
      grant_id: first.body.grant_id,
      gate_id: first.body.gate_id,
      status: "pending",
      requested_at: first.body.requested_at,
    });
    const other = await requestGrant(owner, fleetId, "slack");
    expect(other.status).toBe(201);
    expect(other.body.grant_id).not.toBe(first.body.grant_id);

    const listed = await listGrants(owner, fleetId);
    expect(listed.body.items.map((g) => g.service)).toEqual(["slack", "github"]);
    expect(listed.body.items[1]).toMatchObject({
      reason: "Open pull requests on the app repo.",
      requested_by: expect.stringMatching(/^api_key:/),
      decided_by: null,
      decided_at: null,
    });
  });

  it("concurrent requests for one service make one grant and one gate: one 201, the rest 200", async () => {
    const owner = await seedTenant();
    const fleetId = await installFleet(owner);
    const answers = await Promise.all(Array.from({ length: 8 }, () => requestGrant(owner, fleetId, "jira")));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 201]);
    expect(new Set(answers.map((a) => a.body.grant_id)).size).toBe(1);
    expect(new Set(answers.map((a) => a.body.gate_id)).size).toBe(1);
    const inbox = await call<{ items: RunnerGate[] }>(
      "GET",
      `/v1/workspaces/${owner.workspaceId}/approvals?fleet_id=${fleetId}`,
      { token: owner.apiKey },
    );
    expect(inbox.body.items).toHaveLength(1);
  });

  it.each([
    [{ service: "GitHub", reason: "r" }, "service"],
    [{ service: "", reason: "r" }, "service"],
    [{ service: "a".repeat(65), reason: "r" }, "service"],
    [{ service: "git hub", reason: "r" }, "service"],
    [{ service: "github", reason: "" }, "reason"],
    [{ service: "github", reason: "   " }, "reason"],
    [{ service: "github", reason: "x".repeat(2001) }, "reason"],
    [{ service: "github", reason: "nul\u0000byte" }, "reason"],
    [{ service: "github" }, "reason"],
    [{ service: "github", reason: "r", extra: 1 }, "extra"],
    [{ service: null, reason: "r" }, "service"],
  ])("refuses %j with 400 naming %s, and stores nothing", async (body, field) => {
    const owner = await seedTenant();
    const fleetId = await installFleet(owner);
    const refused = await call(
      "POST",
      `/v1/workspaces/${owner.workspaceId}/fleets/${fleetId}/integration-requests`,
      { token: owner.apiKey, body },
    );
    expect(refused.status, refused.text).toBe(400);
    expect(refused.body.error_code).toBe("UZ-REQ-001");
    expect(refused.body.detail).toContain(field);
    expect((await listGrants(owner, fleetId)).body.items).toEqual([]);
  });

  it("needs fleet:write to request and grant:read to list; a stopped fleet asks for nothing", async () => {
    const owner = await seedTenant();
    const fleetId = await installFleet(owner);
    const reader = await seedMember(owner, ["fleet:read", "grant:read"]);
    const refused = await call(
      "POST",
      `/v1/workspaces/${owner.workspaceId}/fleets/${fleetId}/integration-requests`,
      { token: reader.token, body: { service: "github", reason: "r" } },
    );
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toContain("fleet:write");
    const listed = await call(
      "GET",
      `/v1/workspaces/${owner.workspaceId}/fleets/${fleetId}/integration-grants`,
      {
        token: reader.token,
      },
    );
    expect(listed.status).toBe(200);

    const stopped = await call("PATCH", `/v1/workspaces/${owner.workspaceId}/fleets/${fleetId}`, {
      token: owner.apiKey,
      body: { status: "stopped" },
    });
    expect(stopped.status, stopped.text).toBe(200);
    const asked = await requestGrant(owner, fleetId);
    expect(asked.status).toBe(409);
    expect(asked.body).toMatchObject({ error_code: "UZ-FLEET-003", current_state: "stopped" });
  });

  it("another tenant's fleet and grant read as absent (404)", async () => {
    const owner = await seedTenant();
    const stranger = await seedTenant();
    const fleetId = await installFleet(owner);
    const requested = await requestGrant(owner, fleetId);
    const asked = await call(
      "POST",
      `/v1/workspaces/${owner.workspaceId}/fleets/${fleetId}/integration-requests`,
      { token: stranger.apiKey, body: { service: "github", reason: "r" } },
    );
    expect(asked.status).toBe(404);
    const listed = await call(
      "GET",
      `/v1/workspaces/${owner.workspaceId}/fleets/${fleetId}/integration-grants`,
      {
        token: stranger.apiKey,
      },
    );
    expect(listed.status).toBe(404);
    const revoked = await revoke(owner, fleetId, requested.body.grant_id, stranger.apiKey);
    expect(revoked.status).toBe(404);
    // The stranger's own fleet does not reach the owner's grant either.
    const theirFleet = await installFleet(stranger);
    const crossed = await call(
      "DELETE",
      `/v1/workspaces/${stranger.workspaceId}/fleets/${theirFleet}/integration-grants/${requested.body.grant_id}`,
      { token: stranger.apiKey },
    );
    expect(crossed.status).toBe(404);
    expect(crossed.body.error_code).toBe("UZ-GRANT-001");
    expect((await grantOf(owner, fleetId, requested.body.grant_id)).status).toBe("pending");
  });

  it("pages newest first with a cursor bound to the fleet and filter", async () => {
    const owner = await seedTenant();
    const fleetId = await installFleet(owner);
    for (const service of ["a-one", "b-two", "c-three"])
      expect((await requestGrant(owner, fleetId, service)).status).toBe(201);
    const first = await listGrants(owner, fleetId, "?limit=2");
    expect(first.body.items.map((g) => g.service)).toEqual(["c-three", "b-two"]);
    expect(first.body.next_cursor).not.toBeNull();
    const second = await listGrants(owner, fleetId, `?limit=2&starting_after=${first.body.next_cursor}`);
    expect(second.body.items.map((g) => g.service)).toEqual(["a-one"]);
    expect(second.body.next_cursor).toBeNull();
    const rebound = await listGrants(
      owner,
      fleetId,
      `?status=approved&starting_after=${first.body.next_cursor}`,
    );
    expect(rebound.status).toBe(400);
    const pending = await listGrants(owner, fleetId, "?status=approved");
    expect(pending.body.items).toEqual([]);
  });
});

describe("integration grants: deciding in the inbox", () => {
  it("approving the gate approves the grant in the same transaction; asking again answers it approved", async () => {
    const owner = await seedTenant();
    const fleetId = await installFleet(owner);
    const requested = await requestGrant(owner, fleetId);
    const approved = await answer(owner, requested.body.gate_id!, "approve");
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
    expect((await answer(owner, requested.body.gate_id!, "deny")).status).toBe(200);
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
    expect((await gate(owner, requested.body.gate_id!)).body.status).toBe("denied");
    expect((await answer(owner, again.body.gate_id!, "approve")).status).toBe(200);
    expect((await grantOf(owner, fleetId, requested.body.grant_id)).status).toBe("approved");
  });

  it("a timed-out gate leaves the grant pending, and asking again opens a fresh gate", async () => {
    const api = await testApi();
    const owner = await seedTenant();
    const fleetId = await installFleet(owner);
    const requested = await requestGrant(owner, fleetId);
    const swept = await timeOutGates(api.database.db, Date.now() + 25 * 3_600_000, requested.body.gate_id!);
    expect(swept).toEqual([requested.body.gate_id]);
    expect((await grantOf(owner, fleetId, requested.body.grant_id)).status).toBe("pending");
    const again = await requestGrant(owner, fleetId);
    expect(again.status).toBe(201);
    expect(again.body.gate_id).not.toBe(requested.body.gate_id);
    expect((await gate(owner, again.body.gate_id!)).body.status).toBe("pending");
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
    expect((await gate(owner, requested.body.gate_id!)).body.status).toBe("auto_killed");
    expect((await grantOf(owner, fleetId, requested.body.grant_id)).status).toBe("pending");
  });
});

describe("integration grants: revoking", () => {
  it("revokes an approved grant with an audit row; a second revoke is 409 UZ-GRANT-002", async () => {
    const owner = await seedTenant();
    const fleetId = await installFleet(owner);
    const requested = await requestGrant(owner, fleetId);
    await answer(owner, requested.body.gate_id!, "approve");
    const revoked = await revoke(owner, fleetId, requested.body.grant_id);
    expect(revoked.status, revoked.text).toBe(200);
    expect(revoked.body).toMatchObject({ status: "revoked", decided_by: expect.stringMatching(/^api_key:/) });
    const again = await revoke(owner, fleetId, requested.body.grant_id);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ error_code: "UZ-GRANT-002", current_state: "revoked" });

    const audit = await call<OutputOf<typeof listWorkspaceAudit>>(
      "GET",
      `/v1/workspaces/${owner.workspaceId}/audit?action=integration_grant.*`,
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
    expect((await revoke(owner, fleetId, requested.body.grant_id)).status).toBe(200);
    const closed = await gate(owner, requested.body.gate_id!);
    expect(closed.body).toMatchObject({ status: "denied", resolved_by: expect.stringMatching(/^api_key:/) });
    const late = await answer(owner, requested.body.gate_id!, "approve");
    expect(late.status).toBe(409);
    expect((await grantOf(owner, fleetId, requested.body.grant_id)).status).toBe("revoked");
  });

  it("needs grant:write; an unknown grant is 404 UZ-GRANT-001", async () => {
    const owner = await seedTenant();
    const fleetId = await installFleet(owner);
    const requested = await requestGrant(owner, fleetId);
    const reader = await seedMember(owner, ["grant:read", "fleet:write"]);
    const refused = await revoke(owner, fleetId, requested.body.grant_id, reader.token);
    expect(refused.status).toBe(403);
    const absent = await revoke(owner, fleetId, "01a2000a-0000-7000-8000-000000000000");
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
        answer(owner, requested.body.gate_id!, "approve"),
        revoke(owner, fleetId, requested.body.grant_id),
      ]);
      expect(revoked.status, revoked.text).toBe(200);
      expect([200, 409]).toContain(approved.status);
      const grant = await grantOf(owner, fleetId, requested.body.grant_id);
      expect(grant.status).toBe("revoked");
      const gateRow = await gate(owner, requested.body.gate_id!);
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
    await answer(owner, requested.body.gate_id!, "approve");
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

describe("integration grants: the documented contract", () => {
  it("documents both success statuses of a request, and of a runner's gate open", async () => {
    type Doc = {
      paths: Record<string, Record<string, { responses: Record<string, { description: string }> }>>;
    };
    const document = await call<Doc>("GET", "/v1/openapi.json");
    const request =
      document.body.paths["/v1/workspaces/{workspace_id}/fleets/{fleet_id}/integration-requests"]!.post!;
    expect(Object.keys(request.responses)).toEqual(expect.arrayContaining(["200", "201"]));
    expect(request.responses["200"]!.description).toMatch(/already stood/);
    const open = document.body.paths["/v1/runners/me/leases/{lease_id}/gates"]!.post!;
    expect(Object.keys(open.responses)).toEqual(expect.arrayContaining(["200", "201"]));
    const webhook = document.body.paths["/v1/webhooks/{fleet_id}/grant-approval"]!.post! as unknown as {
      security: unknown[];
      parameters: { name: string; in: string }[];
    };
    expect(webhook.security).toEqual([]);
    expect(webhook.parameters.filter((p) => p.in === "header").map((p) => p.name)).toEqual([
      "x-signature-timestamp",
      "x-signature",
    ]);
  });
});
