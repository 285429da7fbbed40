import { type OutputOf, rolePresets } from "@fleet/contracts";
import type { createApiKey } from "@fleet/contracts/api-keys/create-api-key";
import type { WebhookDeliveryItem } from "@fleet/contracts/webhook-endpoints/webhook-delivery";
import type { WebhookEndpointItem } from "@fleet/contracts/webhook-endpoints/webhook-endpoint";
import {
  type ReceivedDelivery,
  startWebhookReceiver,
  type WebhookReceiver,
} from "@fleet/testing/webhook-receiver";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deliverDueWebhooks } from "../src/services/webhook-endpoints/delivery.ts";
import { answerGate, leasedFleet, openGate } from "./approval-fixtures.ts";
import { installFleet } from "./fleet-fixtures.ts";
import { call, seedTenant, testApi, useIsolatedApi } from "./harness.ts";
import {
  DAY_MS,
  deliveries,
  endpointPath,
  endpointRead,
  hostileReplayBodies,
  ping,
  settled,
  subscribe,
  until,
  verified,
  verifiesWith,
} from "./webhook-delivery-fixtures.ts";
import { endpointsPath, pingedEndpoint } from "./webhook-endpoint-fixtures.ts";

describe("webhook deliveries: the log, retry, replay, ping, health (dev mode: a local receiver)", () => {
  useIsolatedApi({ FLEET_DEV_MODE: "true" });
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    receiver = await startWebhookReceiver();
  });
  afterAll(() => receiver.close());

  it("a test ping arrives signed, and is listed with its request and attempt; an upper-case id is the same", {
    timeout: 60_000,
  }, async () => {
    const owner = await seedTenant();
    const endpoint = await subscribe(owner, receiver.url, ["gate.opened"]);
    const sent = await ping(owner, endpoint.id.toUpperCase());
    expect(sent.status, sent.text).toBe(202);
    expect(sent.body).toMatchObject({
      endpoint_id: endpoint.id,
      type: "ping",
      resource: `webhook_endpoint:${endpoint.id}`,
      status: "pending",
      attempt_count: 0,
      attempts: [],
    });
    expect(sent.body.request.data).toMatchObject({
      endpoint_id: endpoint.id,
      workspace_id: owner.workspaceId,
    });
    const arrived = await receiver.waitFor((d) => d.headers["webhook-id"] === sent.body.id);
    const payload = verified(endpoint.secret, arrived);
    expect(payload).toEqual(sent.body.request);
    expect(payload.type).toBe("ping");

    const done = await settled(owner, endpoint.id, sent.body.id, "succeeded");
    expect(done).toMatchObject({ attempt_count: 1, next_attempt_at: null });
    expect(done.attempts).toHaveLength(1);
    expect(done.attempts[0]).toMatchObject({
      attempt: 1,
      status_code: 200,
      error: null,
      response_head: "answered 200",
    });
    expect(done.attempts[0]!.latency_ms).toBeGreaterThanOrEqual(0);
    const upper = await deliveries(
      { ...owner, workspaceId: owner.workspaceId.toUpperCase() },
      endpoint.id.toUpperCase(),
    );
    expect(upper.items.map((item) => item.id)).toEqual([sent.body.id]);
    // A ping is no subscribable type.
    const refused = await call("PATCH", endpointPath(owner, endpoint.id), {
      token: owner.apiKey,
      body: { event_types: ["ping"] },
    });
    expect(refused.status).toBe(400);
  });

  it("lists newest first, filtered by status and type, paged by a cursor bound to its filters", {
    timeout: 90_000,
  }, async () => {
    const owner = await seedTenant();
    const endpoint = await subscribe(owner, receiver.url, ["gate.opened"]);
    const pings: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const sent = await ping(owner, endpoint.id);
      pings.push(sent.body.id);
      await settled(owner, endpoint.id, sent.body.id, "succeeded");
    }
    // The gate's delivery fails twice: after its second attempt it waits a minute, pending.
    receiver.answerNext(500, 500);
    const gate = await openGate(await leasedFleet(owner));
    expect(gate.status, gate.text).toBe(201);
    const failing = await until(async () => {
      const page = await deliveries(owner, endpoint.id, "?type=gate.opened");
      const found = page.items[0];
      return found !== undefined && found.attempts.length === 2 && found.status === "pending"
        ? found
        : undefined;
    });
    expect(failing.attempts.map((a) => [a.attempt, a.status_code, a.response_head])).toEqual([
      [2, 500, "answered 500"],
      [1, 500, "answered 500"],
    ]);
    expect(failing.next_attempt_at).toBeGreaterThan(Date.now() + 30_000);
    expect(failing.request.data).toMatchObject({ gate_id: gate.body.gate_id });

    const all = await deliveries(owner, endpoint.id);
    expect(all.total).toBe(4);
    expect(all.items.map((item) => item.id)).toEqual([failing.id, ...[...pings].reverse()]);
    const pending = await deliveries(owner, endpoint.id, "?status=pending");
    expect(pending.items.map((item) => item.id)).toEqual([failing.id]);
    const succeeded = await deliveries(owner, endpoint.id, "?status=succeeded&type=ping");
    expect(succeeded.items.map((item) => item.id)).toEqual([...pings].reverse());
    expect((await deliveries(owner, endpoint.id, "?status=failed")).items).toEqual([]);

    const first = await deliveries(owner, endpoint.id, "?limit=3");
    expect(first.items.map((item) => item.id)).toEqual(all.items.slice(0, 3).map((item) => item.id));
    expect(first.next_cursor).not.toBeNull();
    const second = await deliveries(owner, endpoint.id, `?limit=3&starting_after=${first.next_cursor}`);
    expect(second.items.map((item) => item.id)).toEqual([pings[0]]);
    expect(second.next_cursor).toBeNull();
    const crossed = await call(
      "GET",
      `${endpointPath(owner, endpoint.id)}/deliveries?type=ping&starting_after=${first.next_cursor}`,
      { token: owner.apiKey },
    );
    expect(crossed.status).toBe(400);
    for (const query of ["?status=lost", "?type=gate.nothing", "?type=%00", "?limit=0"]) {
      const bad = await call("GET", `${endpointPath(owner, endpoint.id)}/deliveries${query}`, {
        token: owner.apiKey,
      });
      expect(bad.status, query).toBe(400);
      expect(bad.body.error_code, query).toBe("UZ-REQ-001");
    }
  });

  it("retry makes a failed delivery due again and delivers it; a succeeded one is sent again with its webhook-id", {
    timeout: 60_000,
  }, async () => {
    const owner = await seedTenant();
    const endpoint = await subscribe(owner, receiver.url, ["gate.opened"]);
    receiver.answerNext(410);
    const sent = await ping(owner, endpoint.id);
    const failed = await settled(owner, endpoint.id, sent.body.id, "failed");
    expect(failed.attempts[0]).toMatchObject({ status_code: 410 });
    expect(await endpointRead(owner, endpoint.id)).toMatchObject({ enabled: false, disabled_reason: "gone" });

    const retried = await call<WebhookDeliveryItem>(
      "POST",
      `${endpointPath(owner, endpoint.id)}/deliveries/${sent.body.id.toUpperCase()}/retry`,
      { token: owner.apiKey },
    );
    expect(retried.status, retried.text).toBe(202);
    expect(retried.body).toMatchObject({ id: sent.body.id, status: "pending", attempt_count: 1 });
    expect(retried.body.next_attempt_at).toBeLessThanOrEqual(Date.now());
    // A disabled endpoint's delivery waits; enabling it lets the retry go.
    const enabled = await call("PATCH", endpointPath(owner, endpoint.id), {
      token: owner.apiKey,
      body: { enabled: true },
    });
    expect(enabled.status, enabled.text).toBe(200);
    const done = await settled(owner, endpoint.id, sent.body.id, "succeeded", 2);
    expect(done.attempts.map((a) => [a.attempt, a.status_code])).toEqual([
      [2, 200],
      [1, 410],
    ]);

    const from = receiver.received.length;
    const again = await call<WebhookDeliveryItem>(
      "POST",
      `${endpointPath(owner, endpoint.id)}/deliveries/${sent.body.id}/retry`,
      { token: owner.apiKey },
    );
    expect(again.status, again.text).toBe(202);
    const resent = await receiver.waitFor((d) => d.headers["webhook-id"] === sent.body.id, 10_000, from);
    expect(verified(endpoint.secret, resent).id).toBe(sent.body.id);
    await settled(owner, endpoint.id, sent.body.id, "succeeded", 3);
  });

  it("replay sends again everything the subscription matches since a time, each resource in order; too far back is refused", {
    timeout: 90_000,
  }, async () => {
    const owner = await seedTenant();
    const since = Date.now() - 1_000;
    const endpoint = await subscribe(owner, receiver.url, ["gate.opened", "gate.decided"]);
    const leased = await leasedFleet(owner);
    const gateA = (await openGate(leased)).body.gate_id;
    expect((await answerGate(owner, gateA, "approve")).status).toBe(200);
    const gateB = (await openGate(leased)).body.gate_id;
    await until(async () => {
      const page = await deliveries(owner, endpoint.id, "?status=succeeded");
      return page.total === 3 ? true : undefined;
    });

    // Too far back: refused, and nothing is queued.
    const tooOld = await call("POST", `${endpointPath(owner, endpoint.id)}/replay`, {
      token: owner.apiKey,
      body: { since: Date.now() - 8 * DAY_MS },
    });
    expect(tooOld.status, tooOld.text).toBe(400);
    expect(tooOld.body.error_code).toBe("UZ-WEBHOOK-011");
    expect((await deliveries(owner, endpoint.id, "?status=pending")).total).toBe(0);

    // An endpoint subscribed after the acts gets them all, each gate's events in order.
    const late = await subscribe(owner, receiver.url, ["gate.opened", "gate.decided"]);
    const filtered = await subscribe(owner, receiver.url, ["gate.opened"], {
      fleet_id: await installFleet(owner),
    });
    const from = receiver.received.length;
    const replayed = await call<{ queued: number; next_since: number | null }>(
      "POST",
      `${endpointPath(owner, late.id)}/replay`,
      { token: owner.apiKey, body: { since } },
    );
    expect(replayed.status, replayed.text).toBe(202);
    expect(replayed.body).toEqual({ queued: 3, next_since: null });
    const ofLate = (gate: string, type: string) => (d: ReceivedDelivery) =>
      d.body.includes(gate) && d.body.includes(`"type":"${type}"`) && verifiesWith(late.secret, d);
    const opened = await receiver.waitFor(ofLate(gateA, "gate.opened"), 15_000, from);
    const decided = await receiver.waitFor(ofLate(gateA, "gate.decided"), 15_000, from);
    await receiver.waitFor(ofLate(gateB, "gate.opened"), 15_000, from);
    expect(receiver.received.indexOf(opened)).toBeLessThan(receiver.received.indexOf(decided));
    expect(verified(late.secret, decided).data).toMatchObject({ gate_id: gateA, status: "approved" });

    // The first endpoint's deliveries go back to pending and are sent again, with the same ids.
    const again = await call<{ queued: number }>("POST", `${endpointPath(owner, endpoint.id)}/replay`, {
      token: owner.apiKey,
      body: { since },
    });
    expect(again.body.queued).toBe(3);
    await until(async () => {
      const page = await deliveries(owner, endpoint.id, "?status=succeeded");
      return page.total === 3 && page.items.every((item) => item.attempt_count === 2) ? true : undefined;
    });
    // A fleet filter naming another fleet matches none of them; a since later than all matches nothing.
    const none = await call<{ queued: number }>("POST", `${endpointPath(owner, filtered.id)}/replay`, {
      token: owner.apiKey,
      body: { since },
    });
    expect(none.body.queued).toBe(0);
    const later = await call<{ queued: number }>("POST", `${endpointPath(owner, late.id)}/replay`, {
      token: owner.apiKey,
      body: { since: Date.now() + 60_000 },
    });
    expect(later.body).toEqual({ queued: 0, next_since: null });
  });

  it("health: a new endpoint has none; then the 24 h success rate and the last failure with its reason", {
    timeout: 60_000,
  }, async () => {
    const owner = await seedTenant();
    const endpoint = await subscribe(owner, receiver.url, ["gate.opened"]);
    expect(endpoint.health).toEqual({ attempts_24h: 0, success_rate_24h: null, last_failure: null });
    const ok = await ping(owner, endpoint.id);
    await settled(owner, endpoint.id, ok.body.id, "succeeded");
    expect((await endpointRead(owner, endpoint.id)).health).toEqual({
      attempts_24h: 1,
      success_rate_24h: 1,
      last_failure: null,
    });
    // A 410 ends its delivery and disables the endpoint, so no retry moves the figures under the test.
    receiver.answerNext(410);
    const gone = await ping(owner, endpoint.id);
    const failed = await settled(owner, endpoint.id, gone.body.id, "failed");
    const health = (await endpointRead(owner, endpoint.id)).health;
    expect(health).toEqual({
      attempts_24h: 2,
      success_rate_24h: 0.5,
      last_failure: { at: failed.attempts[0]!.at, reason: "answered 410" },
    });
    const listed = await call<{ items: WebhookEndpointItem[] }>("GET", endpointsPath(owner), {
      token: owner.apiKey,
    });
    expect(listed.body.items.find((item) => item.id === endpoint.id)?.health).toEqual(health);
  });

  it("another tenant's endpoint or delivery is 404; a key without the webhook scopes is 403; hostile bodies are 400", {
    timeout: 60_000,
  }, async () => {
    const owner = await seedTenant();
    const other = await seedTenant();
    const { endpoint, eventId } = await pingedEndpoint(owner);
    const { endpoint: sibling } = await pingedEndpoint(owner);
    const retryPath = (endpointId: string) =>
      `${endpointPath(owner, endpointId)}/deliveries/${eventId}/retry`;
    const asOther = { token: other.apiKey };
    const theirs = `${endpointsPath(other)}/${endpoint.id}`;
    for (const [method, path] of [
      ["GET", `${theirs}/deliveries`],
      ["POST", `${theirs}/deliveries/${eventId}/retry`],
      ["POST", `${theirs}/test`],
    ] as const) {
      const refused = await call(method, path, asOther);
      expect(refused.status, path).toBe(404);
      expect(refused.body.error_code, path).toBe("UZ-WEBHOOK-007");
    }
    const replayTheirs = await call("POST", `${theirs}/replay`, { ...asOther, body: { since: Date.now() } });
    expect(replayTheirs.body.error_code).toBe("UZ-WEBHOOK-007");
    // The other tenant's own key on the owner's workspace reaches nothing either.
    const crossWorkspace = await call("GET", `${endpointPath(owner, endpoint.id)}/deliveries`, asOther);
    expect(crossWorkspace.status).toBe(404);
    // Another endpoint's delivery, and an unknown one, are not this endpoint's.
    const wrongEndpoint = await call("POST", retryPath(sibling.id), { token: owner.apiKey });
    expect(wrongEndpoint.status).toBe(404);
    expect(wrongEndpoint.body.error_code).toBe("UZ-WEBHOOK-010");

    const keyWith = async (scopes: readonly string[]) => {
      const minted = await call<OutputOf<typeof createApiKey>>("POST", "/v1/api-keys", {
        token: owner.apiKey,
        body: { key_name: "narrow", scopes },
      });
      expect(minted.status, minted.text).toBe(201);
      return minted.body.key;
    };
    for (const preset of ["viewer", "approver"]) {
      const token = await keyWith(rolePresets.find((p) => p.id === preset)!.scopes);
      for (const [method, path] of [
        ["GET", `${endpointPath(owner, endpoint.id)}/deliveries`],
        ["POST", retryPath(endpoint.id)],
        ["POST", `${endpointPath(owner, endpoint.id)}/test`],
      ] as const) {
        const refused = await call(method, path, { token });
        expect(refused.status, `${preset} ${path}`).toBe(403);
        expect(refused.body.error_code).toBe("UZ-AUTH-022");
      }
    }
    const reader = await keyWith(["webhook:read"]);
    expect(
      (await call("GET", `${endpointPath(owner, endpoint.id)}/deliveries`, { token: reader })).status,
    ).toBe(200);
    const readOnly = await call("POST", `${endpointPath(owner, endpoint.id)}/replay`, {
      token: reader,
      body: { since: Date.now() },
    });
    expect(readOnly.status).toBe(403);
    expect(readOnly.body.error_code).toBe("UZ-AUTH-022");

    const replayPath = `${endpointPath(owner, endpoint.id)}/replay`;
    const before = await deliveries(owner, endpoint.id);
    for (const rawBody of hostileReplayBodies()) {
      const refused = await call("POST", replayPath, {
        token: owner.apiKey,
        rawBody,
        headers: { "content-type": "application/json" },
      });
      expect(refused.status, rawBody).toBe(400);
      expect(refused.headers.get("content-type"), rawBody).toContain("application/problem+json");
    }
    expect(await deliveries(owner, endpoint.id)).toEqual(before);
  });

  it("an endpoint failing for five days, tried each of them, is disabled as failing, with an audit row", {
    timeout: 90_000,
  }, async () => {
    const owner = await seedTenant();
    const endpoint = await subscribe(owner, receiver.url, ["gate.opened"]);
    receiver.otherwise = 500;
    try {
      const sent = await ping(owner, endpoint.id);
      const first = await settled(owner, endpoint.id, sent.body.id, "pending");
      const firstAt = first.attempts.at(-1)!.at;
      const api = await testApi();
      // A clock moved a day at a time: the delivery is due again at each pass, and fails.
      for (let day = 1; day <= 5; day += 1) {
        const later = firstAt + day * DAY_MS;
        await deliverDueWebhooks({ ...api.app.services, now: () => later }, () => {});
        const read = await endpointRead(owner, endpoint.id);
        if (day < 5) expect(read, `day ${day}`).toMatchObject({ enabled: true, disabled_reason: null });
        else expect(read).toMatchObject({ enabled: false, disabled_reason: "failing", disabled_at: later });
      }
      const audit = await call<{ items: { actor: string; action: string; target: string }[] }>(
        "GET",
        `/v1/workspaces/${owner.workspaceId}/audit?action=webhook_endpoint.disable`,
        { token: owner.apiKey },
      );
      expect(audit.status, audit.text).toBe(200);
      expect(audit.body.items).toEqual([
        expect.objectContaining({
          actor: "service:webhook-delivery",
          target: `webhook_endpoint:${endpoint.id}`,
        }),
      ]);
      const log = await deliveries(owner, endpoint.id);
      expect(log.items[0]!.attempt_count).toBeGreaterThanOrEqual(6);
    } finally {
      receiver.otherwise = 200;
    }
  });
});
