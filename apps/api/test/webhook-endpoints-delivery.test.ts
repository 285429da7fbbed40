import type { OutputOf } from "@fleet/contracts";
import type { createWebhookEndpoint } from "@fleet/contracts/webhook-endpoints/create-webhook-endpoint";
import { and, eq, webhookAttempts, webhookDeliveries, webhookEvents } from "@fleet/db";
import {
  type ReceivedDelivery,
  startWebhookReceiver,
  type WebhookReceiver,
} from "@fleet/testing/webhook-receiver";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decideGate } from "../src/services/approvals/decide-gate.ts";
import { deliverDueWebhooks } from "../src/services/webhook-endpoints/delivery.ts";
import { retryDelayMs, WEBHOOK_RETRY_DELAYS_MS } from "../src/services/webhook-endpoints/retry-schedule.ts";
import { answerGate, leasedFleet, openGate } from "./approval-fixtures.ts";
import { call, seedTenant, testApi, useIsolatedApi } from "./harness.ts";
import { report } from "./runner-fixtures.ts";
import { subscribe, until, verified } from "./webhook-delivery-fixtures.ts";

type Minted = OutputOf<typeof createWebhookEndpoint>;

const ofGate = (gateId: string, type: string) => (delivery: ReceivedDelivery) =>
  delivery.body.includes(`"type":"${type}"`) && delivery.body.includes(gateId);

async function deliveriesOf(endpointId: string) {
  const api = await testApi();
  return api.database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpointId));
}

async function attemptsOf(endpointId: string, eventId: string) {
  const api = await testApi();
  return api.database.db
    .select()
    .from(webhookAttempts)
    .where(and(eq(webhookAttempts.endpointId, endpointId), eq(webhookAttempts.eventId, eventId)))
    .orderBy(webhookAttempts.attempt);
}

describe("webhook deliveries (dev mode, so an endpoint may be a local receiver)", () => {
  useIsolatedApi({ FLEET_DEV_MODE: "true" });
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    receiver = await startWebhookReceiver();
  });
  afterAll(() => receiver.close());

  it("a gate opened and decided reach the endpoint, signed so the standardwebhooks verifier accepts them", {
    timeout: 60_000,
  }, async () => {
    const owner = await seedTenant();
    const endpoint = await subscribe(owner, receiver.url, ["gate.opened", "gate.decided"]);
    expect(endpoint.secret).toMatch(/^whsec_/);
    const leased = await leasedFleet(owner);
    const gate = await openGate(leased);
    expect(gate.status, gate.text).toBe(201);
    const opened = await receiver.waitFor(ofGate(gate.body.gate_id, "gate.opened"));
    const payload = verified(endpoint.secret, opened);
    expect(payload).toMatchObject({
      type: "gate.opened",
      data: { gate_id: gate.body.gate_id, status: "pending", fleet_id: leased.fleetId },
    });
    expect(opened.headers["webhook-id"]).toBe(payload.id);
    expect(new Date(payload.timestamp).getTime()).toBe(gate.body.requested_at);
    // Another secret, or a changed body, does not verify.
    const other = await subscribe(await seedTenant(), receiver.url, ["gate.opened"]);
    expect(() => verified(other.secret, opened)).toThrow();
    expect(() =>
      verified(endpoint.secret, { ...opened, body: opened.body.replace("pending", "pendinG") }),
    ).toThrow();

    const answered = await answerGate(owner, gate.body.gate_id, "approve");
    expect(answered.status, answered.text).toBe(200);
    const decided = verified(
      endpoint.secret,
      await receiver.waitFor(ofGate(gate.body.gate_id, "gate.decided")),
    );
    expect(decided.data).toMatchObject({ gate_id: gate.body.gate_id, status: "approved" });
    expect(decided.id).not.toBe(payload.id);
    const rows = await until(async () => {
      const all = await deliveriesOf(endpoint.id);
      return all.length === 2 && all.every((row) => row.status === "succeeded") ? all : undefined;
    });
    expect(rows.map((row) => row.attempts)).toEqual([1, 1]);
  });

  it("a finished run sends event.completed or event.failed with the event as its read shows it", {
    timeout: 60_000,
  }, async () => {
    const owner = await seedTenant();
    const endpoint = await subscribe(owner, receiver.url, ["event.completed", "event.failed"]);
    const leased = await leasedFleet(owner);
    const reported = await report(leased.runner, leased.lease, { response_text: "all done" });
    expect(reported.status, reported.text).toBe(200);
    const delivery = await receiver.waitFor((d) => d.body.includes(leased.lease.event_id));
    const payload = verified(endpoint.secret, delivery);
    expect(payload).toMatchObject({
      type: "event.completed",
      data: { event_id: leased.lease.event_id, status: "processed", response_text: "all done" },
    });
  });

  it("an act that rolls back leaves no event and no delivery", { timeout: 60_000 }, async () => {
    const owner = await seedTenant();
    const endpoint = await subscribe(owner, receiver.url, ["gate.decided"]);
    const gate = await openGate(await leasedFleet(owner));
    const api = await testApi();
    await expect(
      api.database.db.transaction(async (tx) => {
        const won = await decideGate(
          tx,
          gate.body.gate_id,
          { outcome: "approved", reason: null, resolvedBy: `user:${owner.userId}` },
          Date.now(),
        );
        expect(won?.status).toBe("approved");
        throw new Error("the act fails after deciding");
      }),
    ).rejects.toThrow("the act fails after deciding");
    // Deciding for real afterwards delivers exactly one gate.decided: the rolled-back one left nothing.
    const answered = await answerGate(owner, gate.body.gate_id, "deny");
    expect(answered.status, answered.text).toBe(200);
    const delivered = verified(
      endpoint.secret,
      await receiver.waitFor(ofGate(gate.body.gate_id, "gate.decided")),
    );
    expect(delivered.data).toMatchObject({ status: "denied" });
    const events = await api.database.db
      .select()
      .from(webhookEvents)
      .where(eq(webhookEvents.resource, `approval_gate:${gate.body.gate_id}`));
    expect(events.map((event) => event.type)).toEqual(["gate.decided"]);
    expect(await deliveriesOf(endpoint.id)).toHaveLength(1);
  });

  it("a failure is retried on the schedule, with each attempt recorded; a 2xx ends it", {
    timeout: 60_000,
  }, async () => {
    const owner = await seedTenant();
    const endpoint = await subscribe(owner, receiver.url, ["gate.opened"]);
    receiver.answerNext(500);
    const gate = await openGate(await leasedFleet(owner));
    const first = await receiver.waitFor(ofGate(gate.body.gate_id, "gate.opened"));
    expect(first.answered).toBe(500);
    // Settled once its attempt is recorded (until then the row holds the deliverer's claim).
    const [failed] = await until(async () => {
      const rows = await deliveriesOf(endpoint.id);
      const row = rows[0];
      if (row === undefined || (await attemptsOf(endpoint.id, row.eventId)).length === 0) return undefined;
      return rows;
    });
    // The first retry waits 5 s, give or take a fifth.
    const wait = failed!.nextAttemptAt - failed!.updatedAt;
    expect(wait).toBeGreaterThanOrEqual(4_000);
    expect(wait).toBeLessThanOrEqual(6_000);
    const [attempt] = await attemptsOf(endpoint.id, failed!.eventId);
    expect(attempt).toMatchObject({ attempt: 1, status: 500, error: null, responseHead: "answered 500" });
    // The retry carries the same webhook-id, and the 200 ends the delivery.
    const second = await receiver.waitFor(
      ofGate(gate.body.gate_id, "gate.opened"),
      15_000,
      receiver.received.indexOf(first) + 1,
    );
    expect(second.headers["webhook-id"]).toBe(first.headers["webhook-id"]);
    const done = await until(async () => {
      const [row] = await deliveriesOf(endpoint.id);
      return row?.status === "succeeded" ? row : undefined;
    });
    expect(done.attempts).toBe(2);
  });

  it("the schedule spreads eleven attempts over about three days, each wait jittered by a fifth", () => {
    expect(WEBHOOK_RETRY_DELAYS_MS).toHaveLength(10);
    const total = WEBHOOK_RETRY_DELAYS_MS.reduce((sum, ms) => sum + ms, 0);
    expect(total / 3_600_000).toBeCloseTo(71.6, 1);
    expect(retryDelayMs(1, 0)).toBe(4_000);
    expect(retryDelayMs(1, 0.5)).toBe(5_000);
    expect(retryDelayMs(10, 0.999_999)).toBeLessThanOrEqual(86_400_000);
  });

  it("a test clock past the last wait gives the delivery up after the eleventh attempt", {
    timeout: 60_000,
  }, async () => {
    const owner = await seedTenant();
    const endpoint = await subscribe(owner, receiver.url, ["gate.opened"]);
    const gate = await openGate(await leasedFleet(owner));
    await receiver.waitFor(ofGate(gate.body.gate_id, "gate.opened"));
    await until(async () =>
      (await deliveriesOf(endpoint.id))[0]?.status === "succeeded" ? true : undefined,
    );
    // Now the receiver fails every attempt, and a clock moved a day at a time drives the schedule.
    receiver.otherwise = 500;
    try {
      const api = await testApi();
      const clocked = await subscribe(owner, receiver.url, ["gate.decided"]);
      await answerGate(owner, gate.body.gate_id, "approve");
      // The clock follows the schedule: each pass runs when the delivery is next due. (A clock moved a day
      // a pass would be five days of failing first, which disables the endpoint as failing.)
      let clock = Date.now();
      const row = await until(async () => {
        const [due] = await deliveriesOf(clocked.id);
        clock = Math.max(clock, due?.nextAttemptAt ?? clock);
        const at = clock;
        await deliverDueWebhooks({ ...api.app.services, now: () => at }, () => {});
        const [found] = await deliveriesOf(clocked.id);
        return found?.status === "failed" ? found : undefined;
      }, 30_000);
      expect(row.attempts).toBe(11);
      const attempts = await attemptsOf(clocked.id, row.eventId);
      expect(attempts).toHaveLength(11);
      // About three days from the first attempt to the last, as the schedule says (±20 %).
      const span = attempts.at(-1)!.at - attempts[0]!.at;
      expect(span / 3_600_000).toBeGreaterThan(71.6 * 0.8);
      expect(span / 3_600_000).toBeLessThan(71.6 * 1.2 + 1);
    } finally {
      receiver.otherwise = 200;
    }
  });

  it("a 410 ends the delivery and disables the endpoint", { timeout: 60_000 }, async () => {
    const owner = await seedTenant();
    const endpoint = await subscribe(owner, receiver.url, ["gate.opened"]);
    receiver.answerNext(410);
    const gate = await openGate(await leasedFleet(owner));
    await receiver.waitFor(ofGate(gate.body.gate_id, "gate.opened"));
    const read = await until(async () => {
      const got = await call<Minted>(
        "GET",
        `/v1/workspaces/${owner.workspaceId}/webhook-endpoints/${endpoint.id}`,
        {
          token: owner.apiKey,
        },
      );
      return got.body.enabled === false ? got : undefined;
    });
    expect(read.body).toMatchObject({ enabled: false, disabled_reason: "gone" });
    expect(read.body).not.toHaveProperty("secret");
    const [row] = await deliveriesOf(endpoint.id);
    expect(row).toMatchObject({ status: "failed", attempts: 1 });
  });
});
