import { beforeAll, describe, expect, it } from "vitest";
import { answerGate, type RunnerGate, readGate } from "./approval-fixtures.ts";
import { installFleet } from "./fleet-fixtures.ts";
import { grantOf, listGrants, requestGrant, revokeGrant } from "./grant-fixtures.ts";
import { call, seedMember, seedTenant, testApi } from "./harness.ts";

// The worker's API (and on PGlite its database) starts before the first test's clock runs.
beforeAll(async () => {
  await testApi();
}, 60_000);

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
      requested_by: expect.stringMatching(/^user:/),
      decided_by: null,
      decided_at: null,
    });
  });

  it("a grant's gate takes the workspace policy's rule for integration_grant gates", async () => {
    const owner = await seedTenant();
    const put = await call("PUT", `/v1/workspaces/${owner.workspaceId}/approval-policy`, {
      token: owner.apiKey,
      body: {
        rules: [
          {
            name: "new services",
            match: { gate_kinds: ["integration_grant"] },
            required_approvals: 2,
            timeout_ms: 600_000,
          },
        ],
        escalation_webhook_url: null,
      },
    });
    expect(put.status, put.text).toBe(200);
    const fleetId = await installFleet(owner, "grant-under-policy");
    const requested = await requestGrant(owner, fleetId, "github", "Read issues.");
    expect(requested.status, requested.text).toBe(201);
    const gateId = requested.body.gate_id!;
    const read = await readGate(owner, gateId);
    expect(read.body).toMatchObject({ rule: "new services", required_approvals: 2 });
    expect(read.body.timeout_at - read.body.requested_at).toBe(600_000);
    // One approval of two decides nothing: the grant waits for the second.
    const first = await answerGate(owner, gateId, "approve");
    expect(first.status, first.text).toBe(200);
    expect(first.body).toMatchObject({ outcome: "pending" });
    expect((await grantOf(owner, fleetId, requested.body.grant_id)).status).toBe("pending");
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
    const revoked = await revokeGrant(owner, fleetId, requested.body.grant_id, stranger.apiKey);
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
