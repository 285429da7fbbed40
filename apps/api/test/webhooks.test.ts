import type { OutputOf } from "@fleet/contracts";
import type { listWorkspaceAudit } from "@fleet/contracts/audit/list-workspace-audit";
import type { getWebhookSecret } from "@fleet/contracts/webhooks/get-webhook-secret";
import type { rotateWebhookSecret } from "@fleet/contracts/webhooks/rotate-webhook-secret";
import { approvalGates, auditEvents, eq, integrationGrants, webhookNonces, webhookSecrets } from "@fleet/db";
import { beforeAll, describe, expect, it } from "vitest";
import { workspaceWebhookSecret } from "../src/services/webhooks/secret.ts";
import { sign } from "../src/services/webhooks/signature.ts";
import { installFleet } from "./fleet-fixtures.ts";
import { freshNonce, listGrants, mintWebhookSecret, requestGrant, sendDecision } from "./grant-fixtures.ts";
import { call, seedMember, seedTenant, type Tenant, type TrpcRefusal, testApi } from "./harness.ts";

// The worker's API (and on PGlite its database) starts before the first test's clock runs.
beforeAll(async () => {
  await testApi();
}, 60_000);

type Minted = OutputOf<typeof rotateWebhookSecret>;
type State = OutputOf<typeof getWebhookSecret>;

function secretPath(tenant: Tenant) {
  return `/v1/workspaces/${tenant.workspaceId}/webhook-secret`;
}

describe("workspace webhook secret", () => {
  it("is minted once, shown once, stored sealed, and read back only as configured", async () => {
    const api = await testApi();
    const tenant = await seedTenant();
    const before = await call<State>("GET", secretPath(tenant), { token: tenant.apiKey });
    expect(before.status, before.text).toBe(200);
    expect(before.body).toEqual({ configured: false, created_at: null });
    expect(
      await workspaceWebhookSecret(api.database.db, api.app.services.vault, tenant.workspaceId),
    ).toBeNull();

    const minted = await call<Minted>("POST", secretPath(tenant), { token: tenant.apiKey });
    expect(minted.status, minted.text).toBe(201);
    expect(minted.headers.get("cache-control")).toBe("no-store");
    expect(minted.body.secret).toMatch(/^agt_w[A-Za-z0-9_-]{43}$/);

    const after = await call<State>("GET", secretPath(tenant), { token: tenant.apiKey });
    expect(after.body).toEqual({ configured: true, created_at: minted.body.created_at });
    expect(after.text).not.toContain(minted.body.secret);

    const [row] = await api.database.db
      .select()
      .from(webhookSecrets)
      .where(eq(webhookSecrets.workspaceId, tenant.workspaceId));
    expect(JSON.stringify(row)).not.toContain(minted.body.secret.slice(5));
    expect(await workspaceWebhookSecret(api.database.db, api.app.services.vault, tenant.workspaceId)).toBe(
      minted.body.secret,
    );
    expect(api.logs.join("\n")).not.toContain(minted.body.secret);
  });

  it("rotates: the new secret replaces the old at once, and each rotation is audited with its request", async () => {
    const api = await testApi();
    const tenant = await seedTenant();
    const first = await mintWebhookSecret(tenant);
    const rotated = await call<Minted>("POST", secretPath(tenant), { token: tenant.apiKey });
    expect(rotated.status).toBe(201);
    expect(rotated.body.secret).not.toBe(first);
    expect(await workspaceWebhookSecret(api.database.db, api.app.services.vault, tenant.workspaceId)).toBe(
      rotated.body.secret,
    );
    const audit = await call<OutputOf<typeof listWorkspaceAudit>>(
      "GET",
      `/v1/workspaces/${tenant.workspaceId}/audit?action=webhook_secret.rotate`,
      { token: tenant.apiKey },
    );
    expect(audit.status, audit.text).toBe(200);
    expect(audit.body.items.map((row) => row.details)).toEqual([{ replaced: true }, { replaced: false }]);
    expect(audit.body.items[0]).toMatchObject({
      actor: expect.stringMatching(/^api_key:/),
      target: `workspace:${tenant.workspaceId}`,
      request_id: rotated.headers.get("x-request-id"),
    });
    expect(audit.text).not.toContain(first);
    expect(audit.text).not.toContain(rotated.body.secret);
  });

  it("concurrent rotations leave exactly one secret in force, the one the last commit minted", async () => {
    const api = await testApi();
    const tenant = await seedTenant();
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => call<Minted>("POST", secretPath(tenant), { token: tenant.apiKey })),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(6).fill(201));
    const inForce = await workspaceWebhookSecret(api.database.db, api.app.services.vault, tenant.workspaceId);
    expect(answers.map((a) => a.body.secret)).toContain(inForce);
    const state = await call<State>("GET", secretPath(tenant), { token: tenant.apiKey });
    const minted = answers.find((a) => a.body.secret === inForce)!;
    expect(state.body.created_at).toBe(minted.body.created_at);
  });

  it("needs workspace:admin; another tenant's workspace is 404", async () => {
    const tenant = await seedTenant();
    const member = await seedMember(tenant, ["fleet:write", "secret:write"]);
    const refused = await call("POST", secretPath(tenant), { token: member.token });
    expect(refused.status).toBe(403);
    expect(refused.body.error_code).toBe("UZ-AUTH-022");
    const stranger = await seedTenant();
    const theirs = await call("POST", secretPath(tenant), { token: stranger.apiKey });
    expect(theirs.status).toBe(404);
    const state = await call<State>("GET", secretPath(tenant), { token: tenant.apiKey });
    expect(state.body.configured).toBe(false);
  });

  it("takes no body on rotation", async () => {
    const tenant = await seedTenant();
    const refused = await call("POST", secretPath(tenant), {
      token: tenant.apiKey,
      body: { secret: "mine" },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error_code).toBe("UZ-REQ-001");
  });
});

/** What a refused call must leave exactly as it was: the grant, its gate, the nonces and the audit log. */
async function snapshot(tenant: Tenant, grantId: string) {
  const api = await testApi();
  const db = api.database.db;
  const [grant] = await db.select().from(integrationGrants).where(eq(integrationGrants.id, grantId));
  const gates = await db
    .select()
    .from(approvalGates)
    .where(eq(approvalGates.workspaceId, tenant.workspaceId));
  const nonces = await db
    .select()
    .from(webhookNonces)
    .where(eq(webhookNonces.workspaceId, tenant.workspaceId));
  const audit = await db.select().from(auditEvents).where(eq(auditEvents.workspaceId, tenant.workspaceId));
  return { grant, gates, nonces, audit };
}

/** A tenant with a webhook secret, a fleet and a pending grant of it. */
async function pendingGrant(service = "github") {
  const tenant = await seedTenant();
  const secret = await mintWebhookSecret(tenant);
  const fleetId = await installFleet(tenant);
  const requested = await requestGrant(tenant, fleetId, service);
  expect(requested.status, requested.text).toBe(201);
  return { tenant, secret, fleetId, grantId: requested.body.grant_id, gateId: requested.body.gate_id! };
}

/** Runs `body` with the service's clock stopped at `at` (epoch ms), so drift is exact. */
async function atClock<T>(at: number, body: () => Promise<T>): Promise<T> {
  const api = await testApi();
  const real = api.app.services.now;
  api.app.services.now = () => at;
  try {
    return await body();
  } finally {
    api.app.services.now = real;
  }
}

const nowS = () => Math.floor(Date.now() / 1000);

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

  it.each([-299, 299])("accepts a timestamp %i s from the service's clock", async (offset) => {
    const { secret, fleetId, grantId } = await pendingGrant();
    const at = 1_790_000_000_000;
    const decided = await atClock(at, () =>
      sendDecision(fleetId, { grant_id: grantId, decision: "approved" }, secret, at / 1000 + offset),
    );
    expect(decided.status, decided.text).toBe(200);
  });

  it.each([-301, 301])(
    "refuses a timestamp %i s from the clock (401 UZ-WEBHOOK-003), changing nothing",
    async (offset) => {
      const { tenant, secret, fleetId, grantId } = await pendingGrant();
      const before = await snapshot(tenant, grantId);
      const at = 1_790_000_000_000;
      const refused = await atClock(at, () =>
        sendDecision(fleetId, { grant_id: grantId, decision: "approved" }, secret, at / 1000 + offset),
      );
      expect(refused.status).toBe(401);
      expect(refused.headers.get("content-type")).toMatch(/^application\/problem\+json/);
      expect(refused.body.error_code).toBe("UZ-WEBHOOK-003");
      expect(await snapshot(tenant, grantId)).toEqual(before);
    },
  );

  it("refuses a tampered body, a wrong secret and missing headers (401), changing nothing", async () => {
    const { tenant, secret, fleetId, grantId } = await pendingGrant();
    const before = await snapshot(tenant, grantId);
    const decision = { grant_id: grantId, decision: "denied" as const };
    const tampered = await sendDecision(fleetId, decision, secret, nowS(), {
      tamper: (raw) => raw.replace('"denied"', '"approved"'),
    });
    expect(tampered.status).toBe(401);
    expect(tampered.body.error_code).toBe("UZ-WEBHOOK-002");
    // The same JSON with other bytes (a space) is another body: signatures cover the bytes sent.
    const reformatted = await sendDecision(fleetId, decision, secret, nowS(), {
      tamper: (raw) => raw.replace(":", ": "),
    });
    expect(reformatted.body.error_code).toBe("UZ-WEBHOOK-002");
    const wrong = await sendDecision(fleetId, decision, `${secret}x`, nowS());
    expect(wrong.status).toBe(401);
    expect(wrong.body.error_code).toBe("UZ-WEBHOOK-002");
    const unsigned = await call("POST", `/v1/webhooks/${fleetId}/grant-approval`, {
      body: { ...decision, nonce: freshNonce() },
    });
    expect(unsigned.status).toBe(401);
    expect(unsigned.body.error_code).toBe("UZ-WEBHOOK-001");
    const garbled = await sendDecision(fleetId, decision, secret, nowS(), {
      headers: { "x-signature": "v0=zz" },
    });
    expect(garbled.body.error_code).toBe("UZ-WEBHOOK-001");
    expect(await snapshot(tenant, grantId)).toEqual(before);
  });

  it("refuses a replayed nonce (409 UZ-WEBHOOK-004), even re-signed for another grant", async () => {
    const { tenant, secret, fleetId, grantId } = await pendingGrant();
    const second = await requestGrant(tenant, fleetId, "slack");
    const nonce = freshNonce();
    const first = await sendDecision(
      fleetId,
      { grant_id: grantId, decision: "approved", nonce },
      secret,
      nowS(),
    );
    expect(first.status, first.text).toBe(200);
    const before = await snapshot(tenant, second.body.grant_id);
    const replayed = await sendDecision(
      fleetId,
      { grant_id: grantId, decision: "approved", nonce },
      secret,
      nowS(),
    );
    expect(replayed.status).toBe(409);
    expect(replayed.body.error_code).toBe("UZ-WEBHOOK-004");
    const reused = await sendDecision(
      fleetId,
      { grant_id: second.body.grant_id, decision: "approved", nonce },
      secret,
      nowS(),
    );
    expect(reused.status).toBe(409);
    expect(reused.body.error_code).toBe("UZ-WEBHOOK-004");
    expect(await snapshot(tenant, second.body.grant_id)).toEqual(before);
  });

  it("concurrent deliveries of one nonce decide once", async () => {
    const { tenant, secret, fleetId } = await pendingGrant();
    const grants = await Promise.all(
      ["s-a", "s-b", "s-c", "s-d"].map(
        async (service) => (await requestGrant(tenant, fleetId, service)).body.grant_id,
      ),
    );
    const nonce = freshNonce();
    const answers = await Promise.all(
      grants.map((grant_id) =>
        sendDecision(fleetId, { grant_id, decision: "approved", nonce }, secret, nowS()),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409, 409]);
    const listed = await listGrants(tenant, fleetId, "?status=approved");
    expect(listed.body.items.filter((g) => g.service.startsWith("s-"))).toHaveLength(1);
  });

  it("after a rotation the old secret is refused and the new one decides", async () => {
    const { tenant, secret, fleetId, grantId } = await pendingGrant();
    const rotated = await mintWebhookSecret(tenant);
    const before = await snapshot(tenant, grantId);
    const old = await sendDecision(fleetId, { grant_id: grantId, decision: "approved" }, secret, nowS());
    expect(old.status).toBe(401);
    expect(old.body.error_code).toBe("UZ-WEBHOOK-002");
    expect(await snapshot(tenant, grantId)).toEqual(before);
    const fresh = await sendDecision(fleetId, { grant_id: grantId, decision: "approved" }, rotated, nowS());
    expect(fresh.status, fresh.text).toBe(200);
  });

  it("refuses an unknown fleet, an unknown grant, another fleet's grant and a decided grant, spending no nonce", async () => {
    const { tenant, secret, fleetId, grantId } = await pendingGrant();
    const otherFleet = await installFleet(tenant);
    const before = await snapshot(tenant, grantId);
    const nonce = freshNonce();
    const unknownFleet = await sendDecision(
      "01a2000a-0000-7000-8000-000000000000",
      { grant_id: grantId, decision: "approved", nonce },
      secret,
      nowS(),
    );
    expect(unknownFleet.status).toBe(404);
    expect(unknownFleet.body.error_code).toBe("UZ-WEBHOOK-005");
    const unknownGrant = await sendDecision(
      fleetId,
      { grant_id: "01a2000a-0000-7000-8000-000000000000", decision: "approved", nonce },
      secret,
      nowS(),
    );
    expect(unknownGrant.status).toBe(404);
    expect(unknownGrant.body.error_code).toBe("UZ-GRANT-001");
    const wrongFleet = await sendDecision(
      otherFleet,
      { grant_id: grantId, decision: "approved", nonce },
      secret,
      nowS(),
    );
    expect(wrongFleet.status).toBe(404);
    expect(wrongFleet.body.error_code).toBe("UZ-GRANT-001");
    expect(await snapshot(tenant, grantId)).toEqual(before);

    // The nonce was never spent: it decides now.
    const decided = await sendDecision(
      fleetId,
      { grant_id: grantId, decision: "approved", nonce },
      secret,
      nowS(),
    );
    expect(decided.status, decided.text).toBe(200);
    const decidedState = await snapshot(tenant, grantId);
    const again = await sendDecision(fleetId, { grant_id: grantId, decision: "denied" }, secret, nowS());
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ error_code: "UZ-GRANT-002", current_state: "approved" });
    expect(await snapshot(tenant, grantId)).toEqual(decidedState);
  });

  it("refuses a workspace without a webhook secret (401 UZ-WEBHOOK-006)", async () => {
    const tenant = await seedTenant();
    const fleetId = await installFleet(tenant);
    const requested = await requestGrant(tenant, fleetId);
    const refused = await sendDecision(
      fleetId,
      { grant_id: requested.body.grant_id, decision: "approved" },
      "agt_wguessed",
      nowS(),
    );
    expect(refused.status).toBe(401);
    expect(refused.body.error_code).toBe("UZ-WEBHOOK-006");
  });

  it("another tenant's secret does not decide this tenant's grant", async () => {
    const { tenant, fleetId, grantId } = await pendingGrant();
    const stranger = await seedTenant();
    const theirs = await mintWebhookSecret(stranger);
    const before = await snapshot(tenant, grantId);
    const refused = await sendDecision(fleetId, { grant_id: grantId, decision: "approved" }, theirs, nowS());
    expect(refused.status).toBe(401);
    expect(await snapshot(tenant, grantId)).toEqual(before);
  });

  it("refuses hostile bodies with 400 before anything else, and /trpc (no raw body) with 401", async () => {
    const { secret, fleetId, grantId } = await pendingGrant();
    for (const body of [
      { grant_id: grantId, decision: "maybe", nonce: freshNonce() },
      { grant_id: grantId, decision: "approved", nonce: "short" },
      { grant_id: grantId, decision: "approved", nonce: `${freshNonce()}\u0000` },
      { grant_id: "not-a-uuid", decision: "approved", nonce: freshNonce() },
      { grant_id: grantId, decision: "approved", nonce: freshNonce(), extra: true },
    ]) {
      const raw = JSON.stringify(body);
      const refused = await call("POST", `/v1/webhooks/${fleetId}/grant-approval`, {
        rawBody: raw,
        headers: {
          "content-type": "application/json",
          "x-signature-timestamp": String(nowS()),
          "x-signature": sign(secret, nowS(), raw),
        },
      });
      expect(refused.status, raw).toBe(400);
      expect(refused.body.error_code).toBe("UZ-REQ-001");
    }
    const nullBody = await call("POST", `/v1/webhooks/${fleetId}/grant-approval`, {
      rawBody: "null",
      headers: { "content-type": "application/json" },
    });
    expect(nullBody.status).toBe(400);
    const viaTrpc = await call<TrpcRefusal>("POST", "/trpc/webhooks.decideGrant", {
      headers: {
        "x-signature-timestamp": String(nowS()),
        "x-signature": sign(secret, nowS(), "{}"),
      },
      body: { fleet_id: fleetId, grant_id: grantId, decision: "approved", nonce: freshNonce() },
    });
    expect(viaTrpc.status).toBe(401);
    expect(viaTrpc.body.error.data.problem.error_code).toBe("UZ-WEBHOOK-001");
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
