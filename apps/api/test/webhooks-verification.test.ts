import { beforeAll, describe, expect, it } from "vitest";
import { sign } from "../src/services/webhooks/signature.ts";
import { installFleet } from "./fleet-fixtures.ts";
import {
  freshNonce,
  listGrants,
  mintWebhookSecret,
  nowS,
  pendingGrant,
  requestGrant,
  sendDecision,
  snapshot,
} from "./grant-fixtures.ts";
import { call, seedTenant, type TrpcRefusal, testApi } from "./harness.ts";

// The worker's API (and on PGlite its database) starts before the first test's clock runs.
beforeAll(async () => {
  await testApi();
}, 60_000);

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

// Who may decide a grant through the webhook: the signature, its clock window, the nonce and the target.
describe("grant-approval webhook", () => {
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

  it("refuses an unknown fleet (as a bad signature), an unknown grant, another fleet's grant and a decided grant, spending no nonce", async () => {
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
    // An unknown fleet reads exactly as a signature that does not verify: no oracle for fleet ids.
    const badSignature = await sendDecision(
      fleetId,
      { grant_id: grantId, decision: "approved", nonce },
      "agt_wnot-the-secret",
      nowS(),
    );
    expect(unknownFleet.status).toBe(401);
    expect(badSignature.status).toBe(401);
    const { request_id: _unknown, ...unknownBody } = unknownFleet.body;
    const { request_id: _bad, ...badBody } = badSignature.body;
    expect(unknownBody).toEqual(badBody);
    expect(unknownBody).toMatchObject({ error_code: "UZ-WEBHOOK-002" });
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
});
