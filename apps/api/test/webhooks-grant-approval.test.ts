import { beforeAll, describe, expect, it } from "vitest";
import { listGrants, nowS, pendingGrant, requestGrant, sendDecision, snapshot } from "./grant-fixtures.ts";
import { call, testApi } from "./harness.ts";

// The worker's API (and on PGlite its database) starts before the first test's clock runs.
beforeAll(async () => {
  await testApi();
}, 60_000);

describe("grant-approval webhook", () => {
  it("approves a pending grant and its gate in one transaction, audited as the webhook", async () => {
    const { tenant, secret, fleetId, grantId, gateId } = await pendingGrant();
    const decided = await sendDecision(fleetId, { grant_id: grantId, decision: "approved" }, secret, nowS());
    expect(decided.status, decided.text).toBe(200);
    expect(decided.body).toMatchObject({
      grant_id: grantId,
      fleet_id: fleetId,
      service: "github",
      status: "approved",
      decided_by: "webhook:grant-approval",
    });
    const after = await snapshot(tenant, grantId);
    expect(after.grant).toMatchObject({ status: "approved", decidedBy: "webhook:grant-approval" });
    expect(after.gates.find((g) => g.id === gateId)).toMatchObject({
      status: "approved",
      resolvedBy: "webhook:grant-approval",
    });
    expect(after.audit.filter((row) => row.action.startsWith("integration_grant."))).toEqual([
      expect.objectContaining({
        action: "integration_grant.approve",
        actor: "webhook:grant-approval",
        target: `integration_grant:${grantId}`,
        requestId: decided.headers.get("x-request-id"),
      }),
    ]);
    const listed = await listGrants(tenant, fleetId);
    expect(listed.body.items[0]).toMatchObject({ status: "approved", decided_by: "webhook:grant-approval" });
  });

  it("denied revokes the grant and denies its gate; the fleet may ask again", async () => {
    const { tenant, secret, fleetId, grantId, gateId } = await pendingGrant();
    const decided = await sendDecision(fleetId, { grant_id: grantId, decision: "denied" }, secret, nowS());
    expect(decided.status, decided.text).toBe(200);
    expect(decided.body.status).toBe("revoked");
    const after = await snapshot(tenant, grantId);
    expect(after.gates.find((g) => g.id === gateId)?.status).toBe("denied");
    const again = await requestGrant(tenant, fleetId);
    expect(again.status).toBe(201);
    expect(again.body.status).toBe("pending");
  });

  it("an inbox answer racing the webhook: exactly one decides, and grant and gate agree", async () => {
    for (let round = 0; round < 5; round++) {
      const { tenant, secret, fleetId, grantId, gateId } = await pendingGrant();
      const [inbox, hook] = await Promise.all([
        call("POST", `/v1/workspaces/${tenant.workspaceId}/approvals/${gateId}/approve`, {
          token: tenant.apiKey,
          body: {},
        }),
        sendDecision(fleetId, { grant_id: grantId, decision: "denied" }, secret, nowS()),
      ]);
      expect([inbox.status, hook.status].sort()).toEqual([200, 409]);
      const after = await snapshot(tenant, grantId);
      const gateRow = after.gates.find((g) => g.id === gateId)!;
      if (inbox.status === 200) {
        expect(after.grant?.status).toBe("approved");
        expect(gateRow.status).toBe("approved");
        expect(hook.body.error_code).toBe("UZ-GRANT-002");
      } else {
        expect(after.grant?.status).toBe("revoked");
        expect(gateRow).toMatchObject({ status: "denied", resolvedBy: "webhook:grant-approval" });
      }
    }
  });
});
