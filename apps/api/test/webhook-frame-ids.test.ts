import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { OutputOf, scheduleView } from "@fleet/contracts";
import type { retryFleetEvent } from "@fleet/contracts/fleet-events/retry-fleet-event";
import { eq, schedules } from "@fleet/db";
import { deliver } from "@fleet/testing/fake-chat-vendor";
import type { ReceivedDelivery } from "@fleet/testing/webhook-receiver";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { fireSchedule } from "../src/services/schedules/sync.ts";
import { answerGate, leasedFleet, openGate } from "./approval-fixtures.ts";
import { setBudget, usage, workingFleet } from "./billing-fixtures.ts";
import { connectorPath, connectSlack, useFakeVendors } from "./connector-fixtures.ts";
import { labelledFleet, uniqueLabel } from "./fleet-fixtures.ts";
import { call, seedTenant, type Tenant, testApi } from "./harness.ts";
import { acquire, report } from "./runner-fixtures.ts";
import { type Frame, type OpenedStream, openTail, workspaceStream } from "./stream-fixtures.ts";
import { subscribe, useLocalReceiver, verified } from "./webhook-delivery-fixtures.ts";

/**
 * Issue 33 §2: a delivery's id is the live tail's id for the same happening, so a client reading both
 * deduplicates. The frame carries it as `webhook_id` (in its payload, and copied to the top level of its
 * data); the delivery as its `webhook-id` header and payload `id`. And every fleet event, whatever stored
 * it, sends `event.received` from its own transaction.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const delivered = (type: string, key: string, value: string) => (delivery: ReceivedDelivery) => {
  const body = JSON.parse(delivery.body) as { type: string; data: Record<string, unknown> };
  return body.type === type && body.data[key] === value;
};

/** The frame's id for the outgoing event, after checking both of its places agree. */
function webhookIdOf(frame: Frame): string {
  expect(frame.data.payload.webhook_id).toMatch(UUID);
  expect(frame.data.webhook_id).toBe(frame.data.payload.webhook_id);
  return frame.data.payload.webhook_id;
}

/** The delivery of `type` about `key = value`, verified; its header and payload id must agree. */
async function deliveryOf(secret: string, type: string, key: string, value: string) {
  const delivery = await useReceiver().waitFor(delivered(type, key, value), 20_000);
  const payload = verified(secret, delivery);
  expect(delivery.headers["webhook-id"]).toBe(payload.id);
  return payload;
}

async function frameOf(stream: OpenedStream, kind: string, key: string, value: string) {
  return stream.next((frame) => frame.event === kind && frame.data.payload?.[key] === value, 20_000);
}

let useReceiver: () => ReturnType<ReturnType<typeof useLocalReceiver>>;

describe("the outgoing event's id on the live tail (dev mode: the endpoint is a local receiver)", () => {
  // An API of the file's own (runners lease any tenant's work), pointed at a fake chat vendor.
  const vendor = useFakeVendors(() => ({ FLEET_DEV_MODE: "true" })).chat;
  useReceiver = useLocalReceiver();

  it("a frame's webhook_id is its delivery's webhook-id and payload id: received, gate opened, decided, completed", {
    timeout: 90_000,
  }, async () => {
    const owner = await seedTenant();
    const endpoint = await subscribe(owner, useReceiver().url, [
      "event.received",
      "gate.opened",
      "gate.decided",
      "event.completed",
    ]);
    const stream = await openTail(workspaceStream(owner), owner.apiKey);
    try {
      const leased = await leasedFleet(owner);
      const eventId = leased.lease.event_id;

      const received = await stream.next(
        (frame) => frame.event === "event_received" && frame.data.event_id === eventId,
        20_000,
      );
      const receivedPayload = await deliveryOf(endpoint.secret, "event.received", "event_id", eventId);
      expect(webhookIdOf(received)).toBe(receivedPayload.id);

      const gate = await openGate(leased);
      expect(gate.status, gate.text).toBe(201);
      const gateId = gate.body.gate_id;
      const opened = await frameOf(stream, "gate_opened", "gate_id", gateId);
      const openedPayload = await deliveryOf(endpoint.secret, "gate.opened", "gate_id", gateId);
      expect(webhookIdOf(opened)).toBe(openedPayload.id);

      const answered = await answerGate(owner, gateId, "approve");
      expect(answered.status, answered.text).toBe(200);
      const resolved = await frameOf(stream, "gate_resolved", "gate_id", gateId);
      const decidedPayload = await deliveryOf(endpoint.secret, "gate.decided", "gate_id", gateId);
      expect(webhookIdOf(resolved)).toBe(decidedPayload.id);

      const reported = await report(leased.runner, leased.lease);
      expect(reported.status, reported.text).toBe(200);
      const complete = await stream.next(
        (frame) => frame.event === "event_complete" && frame.data.event_id === eventId,
        20_000,
      );
      const completedPayload = await deliveryOf(endpoint.secret, "event.completed", "event_id", eventId);
      expect(webhookIdOf(complete)).toBe(completedPayload.id);

      // One id per happening: four different ones, in the order the acts happened (UUIDv7).
      const ids = [receivedPayload.id, openedPayload.id, decidedPayload.id, completedPayload.id];
      expect(new Set(ids).size).toBe(4);
      expect([...ids].sort()).toEqual(ids);
    } finally {
      stream.close();
    }
  });

  it("a schedule's fire and a run again send event.received from their own transaction, with the frame's id", {
    timeout: 90_000,
  }, async () => {
    const owner = await seedTenant();
    const endpoint = await subscribe(owner, useReceiver().url, ["event.received"]);
    const stream = await openTail(workspaceStream(owner), owner.apiKey);
    try {
      const leased = await leasedFleet(owner);
      const created = await call<z.output<typeof scheduleView>>(
        "POST",
        `/v1/workspaces/${owner.workspaceId}/fleets/${leased.fleetId}/schedules`,
        { token: owner.apiKey, body: { cron: "0 0 1 1 *", message: "new year" } },
      );
      expect(created.status, created.text).toBe(201);

      // The fleet's run of a schedule now (the runner's route, under its lease).
      const run = await call<{ event_id: string }>(
        "POST",
        `/v1/runners/me/leases/${leased.lease.lease_id}/schedules/${created.body.schedule_id}/runs`,
        { token: leased.runner.token, body: { fencing_token: leased.lease.fencing_token } },
      );
      expect(run.status, run.text).toBe(202);
      const ran = await stream.next(
        (frame) => frame.event === "event_received" && frame.data.event_id === run.body.event_id,
        20_000,
      );
      const ranPayload = await deliveryOf(endpoint.secret, "event.received", "event_id", run.body.event_id);
      expect(webhookIdOf(ran)).toBe(ranPayload.id);
      expect(ranPayload.data).toMatchObject({ event_type: "cron", status: "received" });

      // A schedule's fire, as the scheduler's job delivers it.
      const api = await testApi();
      const [row] = await api.database.db
        .select({ generation: schedules.generation })
        .from(schedules)
        .where(eq(schedules.id, created.body.schedule_id));
      await fireSchedule(
        api.app.services,
        { schedule_id: created.body.schedule_id, generation: row!.generation, registered_at: 0 },
        Date.now(),
      );
      const cron = await stream.next(
        (frame) =>
          frame.event === "event_received" &&
          frame.data.payload.event_type === "cron" &&
          frame.data.event_id !== run.body.event_id,
        20_000,
      );
      const cronPayload = await deliveryOf(endpoint.secret, "event.received", "event_id", cron.data.event_id);
      expect(webhookIdOf(cron)).toBe(cronPayload.id);
      // The data is the event as its read route shows it.
      const read = await call(
        "GET",
        `/v1/workspaces/${owner.workspaceId}/fleets/${leased.fleetId}/events/${cron.data.event_id}`,
        { token: owner.apiKey },
      );
      expect(read.status, read.text).toBe(200);
      expect(cronPayload.data).toEqual(read.body);
      expect(cronPayload.data).toMatchObject({
        event_type: "cron",
        actor: `cron:${created.body.schedule_id}`,
      });

      // Run again: a finished event (the message, reported) stored anew.
      const finished = await report(leased.runner, leased.lease);
      expect(finished.status, finished.text).toBe(200);
      const retried = await call<OutputOf<typeof retryFleetEvent>>(
        "POST",
        `/v1/workspaces/${owner.workspaceId}/fleets/${leased.fleetId}/events/${leased.lease.event_id}/retry`,
        { token: owner.apiKey },
      );
      expect(retried.status, retried.text).toBe(202);
      const again = await stream.next(
        (frame) => frame.event === "event_received" && frame.data.event_id === retried.body.event_id,
        20_000,
      );
      const againPayload = await deliveryOf(
        endpoint.secret,
        "event.received",
        "event_id",
        retried.body.event_id,
      );
      expect(webhookIdOf(again)).toBe(againPayload.id);
      expect(againPayload.data).toMatchObject({ retry_of: leased.lease.event_id, status: "received" });
    } finally {
      stream.close();
    }
  });

  it("a keyed message and a chat connector's message carry the frame's id too", {
    timeout: 60_000,
  }, async () => {
    const owner = await seedTenant();
    const endpoint = await subscribe(owner, useReceiver().url, ["event.received"]);
    const stream = await openTail(workspaceStream(owner), owner.apiKey);
    try {
      const team = { id: `T-${owner.tenantId}`, name: "Frame ids" };
      await connectSlack(vendor(), owner, team);
      const fleetId = await labelledFleet(owner, uniqueLabel());
      const routed = await call("PUT", `${connectorPath(owner)}/routes/C1`, {
        token: owner.apiKey,
        body: { fleet_id: fleetId },
      });
      expect(routed.status, routed.text).toBe(200);

      const keyed = await call<{ event_id: string }>(
        "POST",
        `/v1/workspaces/${owner.workspaceId}/fleets/${fleetId}/messages`,
        { token: owner.apiKey, body: { message: "once" }, headers: { "idempotency-key": "frame-id-1" } },
      );
      expect(keyed.status, keyed.text).toBe(202);
      const keyedFrame = await stream.next(
        (frame) => frame.event === "event_received" && frame.data.event_id === keyed.body.event_id,
        20_000,
      );
      const keyedPayload = await deliveryOf(
        endpoint.secret,
        "event.received",
        "event_id",
        keyed.body.event_id,
      );
      expect(webhookIdOf(keyedFrame)).toBe(keyedPayload.id);

      const ts = `${Math.floor(Date.now() / 1000)}.000001`;
      const answer = await deliver(vendor(), (await testApi()).baseUrl, {
        token: "legacy",
        team_id: team.id,
        api_app_id: "AFAKE",
        type: "event_callback",
        event_id: `Ev-frame-${owner.tenantId}`,
        event_time: Math.floor(Date.now() / 1000),
        authorizations: [{ team_id: team.id, is_bot: true }],
        event: { type: "app_mention", user: "U42", text: "<@UBOT> hello", ts, channel: "C1", event_ts: ts },
      });
      expect(answer.status).toBe(200);
      const chat = await stream.next(
        (frame) => frame.event === "event_received" && frame.data.payload.actor?.startsWith("webhook:slack:"),
        20_000,
      );
      const chatPayload = await deliveryOf(endpoint.secret, "event.received", "event_id", chat.data.event_id);
      expect(webhookIdOf(chat)).toBe(chatPayload.id);
      expect(chatPayload.data).toMatchObject({
        fleet_id: fleetId,
        event_type: "chat",
        actor: "webhook:slack:U42",
      });
    } finally {
      stream.close();
    }
  });

  it("a budget_alert frame carries its percent's budget.threshold_crossed id; budget.exhausted has no frame", {
    timeout: 60_000,
  }, async () => {
    const owner = await seedTenant();
    const { fleetId, runner } = await workingFleet(owner);
    const endpoint = await subscribe(owner, useReceiver().url, [
      "budget.threshold_crossed",
      "budget.exhausted",
    ]);
    await setBudget(owner, fleetId, { period_budget_nanos: 1_000, alert_percents: [50] });
    const stream = await openTail(workspaceStream(owner, "?kinds=budget_alert"), owner.apiKey);
    try {
      const leased = await acquire(runner);
      const lease = leased.body.lease!;
      expect((await usage(runner, lease, { cost_nanos: 600 })).status).toBe(200);
      const alert = await stream.next((frame) => frame.event === "budget_alert", 20_000);
      expect(alert.data.payload.percent).toBe(50);
      const crossed = await deliveryOf(endpoint.secret, "budget.threshold_crossed", "fleet_id", fleetId);
      expect(webhookIdOf(alert)).toBe(crossed.id);
      expect((await usage(runner, lease, { cost_nanos: 1_100 })).status).toBe(409);
      const exhausted = await deliveryOf(endpoint.secret, "budget.exhausted", "fleet_id", fleetId);
      expect(exhausted.id).not.toBe(crossed.id);
      // 100 is not a named percent: no frame for it.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(stream.frames.filter((frame) => frame.event === "budget_alert")).toHaveLength(1);
    } finally {
      stream.close();
    }
  });

  it("a frame carries a webhook_id even when no endpoint subscribes, and nothing is written then", {
    timeout: 60_000,
  }, async () => {
    const owner: Tenant = await seedTenant();
    const stream = await openTail(workspaceStream(owner), owner.apiKey);
    try {
      const leased = await leasedFleet(owner);
      const received = await stream.next(
        (frame) => frame.event === "event_received" && frame.data.event_id === leased.lease.event_id,
        20_000,
      );
      const id = webhookIdOf(received);
      const api = await testApi();
      const rows = await api.database.query<{ n: string }>(
        "select count(*)::text as n from webhook_events where id = $1",
        [id],
      );
      expect(rows[0]?.n).toBe("0");
    } finally {
      stream.close();
    }
  });

  it("every file of src that inserts a fleet event also writes its event.received (one rule on every path)", () => {
    const src = join(import.meta.dirname, "..", "src");
    const inserting = readdirSync(src, { recursive: true, encoding: "utf8" })
      .filter((file) => file.endsWith(".ts"))
      .map((file) => ({ file, text: readFileSync(join(src, file), "utf8") }))
      .filter(({ text }) => /insert\(fleetEvents\)|insert into fleet_events/.test(text));
    // The six files that insert one today (a guard that finds none would pass for nothing).
    expect(inserting.length).toBeGreaterThanOrEqual(6);
    for (const { file, text } of inserting) {
      expect(/eventReceivedWebhookEvent\(|\$\{receivedOutbox\}/.test(text), file).toBe(true);
    }
  });
});
