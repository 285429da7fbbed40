import { sql } from "@fleet/db";
import { beforeAll, describe, expect, it } from "vitest";
import { installFleet } from "./fleet-fixtures.ts";
import {
  listGrants,
  mintWebhookSecret,
  nowS,
  pendingGrant,
  requestGrant,
  sendDecision,
  snapshot,
} from "./grant-fixtures.ts";
import { call, databaseKind, seedMember, seedTenant, testApi } from "./harness.ts";

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
    // The request is audited too (as its requester); the decision is the webhook's.
    const decisions = after.audit.filter(
      (row) => row.action.startsWith("integration_grant.") && row.action !== "integration_grant.request",
    );
    expect(decisions).toEqual([
      expect.objectContaining({
        action: "integration_grant.approve",
        actor: "webhook:grant-approval",
        target: `integration_grant:${grantId}`,
        requestId: decided.headers.get("x-request-id"),
        // The webhook's body carries no reason; its row says so, as every answer's row does.
        details: expect.objectContaining({ reason: null }),
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

describe("grant-approval webhook, trusted no further than the gate's rule and its own secret", () => {
  it("is not verified by the notice secret: a receiver of the service's notices cannot approve a grant", async () => {
    const { tenant, fleetId, grantId } = await pendingGrant();
    const notices = await call<{ secret: string }>(
      "POST",
      `/v1/workspaces/${tenant.workspaceId}/notice-secret`,
      {
        token: tenant.apiKey,
      },
    );
    expect(notices.status, notices.text).toBe(201);
    const before = await snapshot(tenant, grantId);
    const refused = await sendDecision(
      fleetId,
      { grant_id: grantId, decision: "approved" },
      notices.body.secret,
      nowS(),
    );
    expect(refused.status, refused.text).toBe(401);
    expect(refused.body.error_code).toBe("UZ-WEBHOOK-002");
    expect(await snapshot(tenant, grantId)).toEqual(before);
  });

  it.each([
    ["takes two approvals", { required_approvals: 2 }],
    ["names its approvers", { approvers: ["named"] }],
  ])("refuses a grant whose gate's rule %s (409 UZ-APPROVAL-009), changing nothing", async (_rule, terms) => {
    const tenant = await seedTenant();
    const approver = await seedMember(tenant, ["approval:resolve", "approval:read"]);
    const rule = {
      name: "grants need people",
      match: { gate_kinds: ["integration_grant"] },
      ...terms,
      ...("approvers" in terms ? { approvers: [approver.userId] } : {}),
    };
    const put = await call("PUT", `/v1/workspaces/${tenant.workspaceId}/approval-policy`, {
      token: tenant.apiKey,
      body: { rules: [rule], escalation_webhook_url: null },
    });
    expect(put.status, put.text).toBe(200);
    const secret = await mintWebhookSecret(tenant);
    const fleetId = await installFleet(tenant);
    const requested = await requestGrant(tenant, fleetId);
    expect(requested.status, requested.text).toBe(201);
    const grantId = requested.body.grant_id;
    const before = await snapshot(tenant, grantId);
    for (const decision of ["approved", "denied"] as const) {
      const refused = await sendDecision(fleetId, { grant_id: grantId, decision }, secret, nowS());
      expect(refused.status, refused.text).toBe(409);
      expect(refused.body).toMatchObject({ error_code: "UZ-APPROVAL-009", current_state: "pending" });
      expect(String(refused.body.detail)).toContain('"grants need people"');
    }
    expect(await snapshot(tenant, grantId)).toEqual(before);
  });

  it.runIf(databaseKind === "postgres")(
    "checks the signature before any transaction: a bad one is refused while a rotation holds the secret",
    async () => {
      const { tenant, fleetId, grantId } = await pendingGrant();
      const api = await testApi();
      let answer: { status: number } | "waited 3 s" | undefined;
      // A transaction holding the incoming secret's row, as a rotation does until it commits.
      await api.database.db.transaction(async (tx) => {
        await tx.execute(
          sql`select workspace_id from webhook_secrets where workspace_id = ${tenant.workspaceId} for update`,
        );
        const refused = sendDecision(
          fleetId,
          { grant_id: grantId, decision: "approved" },
          "agt_wforged",
          nowS(),
        );
        const timer = new Promise<"waited 3 s">((resolve) => setTimeout(() => resolve("waited 3 s"), 3000));
        answer = await Promise.race([refused, timer]);
      });
      expect(answer).toMatchObject({ status: 401 });
    },
  );
});
