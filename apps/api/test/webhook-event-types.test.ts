import { asc, eq, webhookDeliveries, webhookEvents } from "@fleet/db";
import {
  type ReceivedDelivery,
  startWebhookReceiver,
  type WebhookReceiver,
} from "@fleet/testing/webhook-receiver";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { timeOutGates } from "../src/services/approvals/sweep.ts";
import { pushSchedule } from "../src/services/schedules/sync.ts";
import { answerGate, leasedFleet } from "./approval-fixtures.ts";
import { escalatingRule, opened, people, putPolicy } from "./approval-policy-fixtures.ts";
import { leaseOne, setBudget, usage, workingFleet } from "./billing-fixtures.ts";
import { installFleet } from "./fleet-fixtures.ts";
import { grantOf, requestGrant, revokeGrant } from "./grant-fixtures.ts";
import { call, seedMember, seedTenant, type Tenant, testApi, useIsolatedApi } from "./harness.ts";
import { endpointIn, type MintedEndpoint } from "./webhook-endpoint-fixtures.ts";

interface Payload {
  id: string;
  type: string;
  timestamp: string;
  data: Record<string, unknown>;
}

/**
 * Two endpoints of the owner's workspace on the local receiver, both subscribed to `types`: `watching`
 * with no fleet filter (or `fleetId`'s), `elsewhere` filtered to another fleet of the workspace, which
 * must get nothing of these acts.
 */
async function watchers(owner: Tenant, receiver: WebhookReceiver, types: string[], fleetId?: string) {
  const watching = await endpointIn(owner, {
    url: `${receiver.url}/watching`,
    event_types: types,
    ...(fleetId === undefined ? {} : { fleet_id: fleetId }),
  });
  const elsewhere = await endpointIn(owner, {
    url: `${receiver.url}/elsewhere`,
    event_types: types,
    fleet_id: await installFleet(owner),
  });
  return { watching, elsewhere };
}

/** The delivery of `type` about `about` (an id, or words, all in its body), verified as an integrator would. */
async function deliveryOf(
  receiver: WebhookReceiver,
  endpoint: MintedEndpoint,
  type: string,
  about: string | string[],
): Promise<Payload> {
  const words = [`"type":"${type}"`, ...(typeof about === "string" ? [about] : about)];
  const delivery = await receiver.waitFor(
    (d: ReceivedDelivery) => words.every((word) => d.body.includes(word)),
    15_000,
  );
  const payload = new Webhook(endpoint.secret).verify(delivery.body, {
    "webhook-id": String(delivery.headers["webhook-id"]),
    "webhook-timestamp": String(delivery.headers["webhook-timestamp"]),
    "webhook-signature": String(delivery.headers["webhook-signature"]),
  }) as Payload;
  expect(delivery.headers["webhook-id"]).toBe(payload.id);
  return payload;
}

/** The outbox's deliveries to one endpoint (of every type, or `type`'s). */
async function deliveriesTo(endpoint: MintedEndpoint, type?: string) {
  const api = await testApi();
  const rows = await api.database.db
    .select()
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.endpointId, endpoint.id));
  return rows.filter((row) => type === undefined || row.type === type);
}

async function eventTypesAbout(resource: string) {
  const api = await testApi();
  // In the order they were written: a select without an order answers in whatever order the heap holds.
  const rows = await api.database.db
    .select()
    .from(webhookEvents)
    .where(eq(webhookEvents.resource, resource))
    .orderBy(asc(webhookEvents.createdAt), asc(webhookEvents.id));
  return rows.map((row) => row.type);
}

describe("the outbox's other event types (dev mode, so an endpoint may be the local receiver)", () => {
  // No reconciler pass during a test: a schedule left failed stays failed until the test pushes it.
  useIsolatedApi({ FLEET_DEV_MODE: "true", FLEET_RECONCILE_INTERVAL_MS: "600000" });
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    receiver = await startWebhookReceiver();
  });
  afterAll(() => receiver.close());

  it("gate.escalated goes out when the sweeper escalates a gate, beside the old notice", {
    timeout: 60_000,
  }, async () => {
    const owner = await seedTenant();
    const [first, backup] = await people(owner, 2);
    const put = await putPolicy(owner, {
      rules: [escalatingRule(first!, backup!)],
      escalation_webhook_url: null,
    });
    expect(put.status, put.text).toBe(200);
    const leased = await leasedFleet(owner);
    const { watching, elsewhere } = await watchers(owner, receiver, ["gate.escalated"], leased.fleetId);
    const gate = await opened(leased);
    const payload = await deliveryOf(receiver, watching, "gate.escalated", gate.gate_id);
    expect(payload.data).toMatchObject({
      gate_id: gate.gate_id,
      status: "pending",
      fleet_id: leased.fleetId,
      rule: "escalating",
      escalated_at: expect.any(Number),
    });
    expect(new Date(payload.timestamp).getTime()).toBe(payload.data.escalated_at);
    expect(await eventTypesAbout(`approval_gate:${gate.gate_id}`)).toEqual(["gate.escalated"]);
    expect(await deliveriesTo(elsewhere)).toHaveLength(0);
  });

  it("gate.timed_out goes out when a gate passes its deadline, and when its fleet is stopped", {
    timeout: 60_000,
  }, async () => {
    const owner = await seedTenant();
    const leased = await leasedFleet(owner);
    const { watching, elsewhere } = await watchers(owner, receiver, ["gate.timed_out"]);
    const overdue = await opened(leased, { timeout_ms: 1_000 });
    const timedOut = await deliveryOf(receiver, watching, "gate.timed_out", overdue.gate_id);
    expect(timedOut.data).toMatchObject({
      gate_id: overdue.gate_id,
      status: "timed_out",
      resolved_by: "system:timeout",
      resolved_at: overdue.timeout_at,
    });

    const pending = await opened(leased);
    const stopped = await call("PATCH", `/v1/workspaces/${owner.workspaceId}/fleets/${leased.fleetId}`, {
      token: owner.apiKey,
      body: { status: "stopped" },
    });
    expect(stopped.status, stopped.text).toBe(200);
    const killed = await deliveryOf(receiver, watching, "gate.timed_out", pending.gate_id);
    expect(killed.data).toMatchObject({
      gate_id: pending.gate_id,
      status: "auto_killed",
      resolved_by: "system:fleet_stopped",
    });
    expect(await deliveriesTo(elsewhere)).toHaveLength(0);
  });

  it("a timeout that rolls back writes no gate.timed_out", { timeout: 60_000 }, async () => {
    const owner = await seedTenant();
    const watching = await endpointIn(owner, {
      url: `${receiver.url}/watching`,
      event_types: ["gate.timed_out"],
    });
    const gate = await opened(await leasedFleet(owner));
    const api = await testApi();
    await expect(
      api.database.db.transaction(async (tx) => {
        const swept = await timeOutGates(tx, Date.now() + 25 * 3_600_000, gate.gate_id);
        expect(swept.map((closed) => closed.id)).toEqual([gate.gate_id]);
        throw new Error("the act fails after timing out");
      }),
    ).rejects.toThrow("the act fails after timing out");
    expect(await eventTypesAbout(`approval_gate:${gate.gate_id}`)).toEqual([]);
    expect(await deliveriesTo(watching)).toHaveLength(0);
  });

  it("grant.requested and grant.decided go out with the grant; a refused request sends nothing", {
    timeout: 60_000,
  }, async () => {
    const owner = await seedTenant();
    const fleetId = await installFleet(owner);
    const { watching, elsewhere } = await watchers(
      owner,
      receiver,
      ["grant.requested", "grant.decided"],
      fleetId,
    );
    const requested = await requestGrant(owner, fleetId, "github", "Open pull requests.");
    expect(requested.status, requested.text).toBe(201);
    const grantId = requested.body.grant_id;
    const asked = await deliveryOf(receiver, watching, "grant.requested", grantId);
    expect(asked.data).toEqual(await grantOf(owner, fleetId, grantId));
    expect(asked.data).toMatchObject({ status: "pending", gate_id: requested.body.gate_id });
    // Asked again while its gate is open: answered as it stands, nothing new.
    expect((await requestGrant(owner, fleetId, "github", "Again.")).status).toBe(200);

    expect((await answerGate(owner, requested.body.gate_id!, "approve")).status).toBe(200);
    const approved = await deliveryOf(receiver, watching, "grant.decided", grantId);
    expect(approved.data).toMatchObject({ grant_id: grantId, status: "approved" });
    const revoked = await revokeGrant(owner, fleetId, grantId);
    expect(revoked.status, revoked.text).toBe(200);
    const gone = await deliveryOf(receiver, watching, "grant.decided", [grantId, '"status":"revoked"']);
    expect(gone.data).toEqual(revoked.body);
    // Revoking it again is refused and sends nothing.
    expect((await revokeGrant(owner, fleetId, grantId)).status).toBe(409);
    expect(await eventTypesAbout(`integration_grant:${grantId}`)).toEqual([
      "grant.requested",
      "grant.decided",
      "grant.decided",
    ]);
    expect(await deliveriesTo(elsewhere)).toHaveLength(0);
  });

  it("api_key.revoked goes out with the key as the key list shows it, never the key", {
    timeout: 60_000,
  }, async () => {
    const owner = await seedTenant();
    const { watching, elsewhere } = await watchers(owner, receiver, ["api_key.revoked"]);
    const minted = await call<{ id: string; key: string }>("POST", "/v1/api-keys", {
      token: owner.apiKey,
      body: { key_name: "to revoke" },
    });
    expect(minted.status, minted.text).toBe(201);
    const revoked = await call("PATCH", `/v1/api-keys/${minted.body.id}`, {
      token: owner.apiKey,
      body: { active: false },
    });
    expect(revoked.status, revoked.text).toBe(200);
    const payload = await deliveryOf(receiver, watching, "api_key.revoked", minted.body.id);
    expect(payload.data).toEqual(revoked.body);
    expect(payload.data).toMatchObject({ active: false, key_name: "to revoke" });
    expect(JSON.stringify(payload)).not.toContain(minted.body.key);
    // A second revoke is refused and sends nothing.
    const again = await call("PATCH", `/v1/api-keys/${minted.body.id}`, {
      token: owner.apiKey,
      body: { active: false },
    });
    expect(again.status).toBe(409);
    expect(await eventTypesAbout(`api_key:${minted.body.id}`)).toEqual(["api_key.revoked"]);
    expect(await deliveriesTo(elsewhere)).toHaveLength(0);
  });

  it("member.removed goes out with the member, and api_key.revoked for each key their removal revoked", {
    timeout: 60_000,
  }, async () => {
    const owner = await seedTenant();
    const { watching, elsewhere } = await watchers(owner, receiver, ["member.removed", "api_key.revoked"]);
    const member = await seedMember(owner, ["apikey:write"]);
    const theirs = await call<{ id: string; key: string }>("POST", "/v1/api-keys", {
      token: member.token,
      body: { key_name: "the member's" },
    });
    expect(theirs.status, theirs.text).toBe(201);
    const path = `/v1/tenants/me/members/${member.userId}`;
    // Refused (a member may not remove people): nothing is sent.
    expect((await call("DELETE", path, { token: member.token })).status).toBe(403);
    expect(await eventTypesAbout(`member:${member.userId}`)).toEqual([]);
    const removed = await call("DELETE", path, { token: owner.apiKey });
    expect(removed.status, removed.text).toBe(204);
    const payload = await deliveryOf(receiver, watching, "member.removed", member.userId);
    expect(payload.data).toEqual({
      user_id: member.userId,
      email: member.email,
      display_name: null,
      role: "member",
      scopes: ["apikey:write"],
      created_at: expect.any(Number),
    });
    const key = await deliveryOf(receiver, watching, "api_key.revoked", theirs.body.id);
    expect(key.data).toMatchObject({ id: theirs.body.id, active: false });
    expect(JSON.stringify(key)).not.toContain(theirs.body.key);
    expect(await deliveriesTo(elsewhere)).toHaveLength(0);
  });

  it("schedule.sync_failed goes out when a push fails after the schedule was in line, once until it syncs", {
    timeout: 60_000,
  }, async () => {
    const owner = await seedTenant();
    const fleetId = await installFleet(owner);
    const { watching, elsewhere } = await watchers(owner, receiver, ["schedule.sync_failed"], fleetId);
    const created = await call<{ schedule_id: string; sync: string }>(
      "POST",
      `/v1/workspaces/${owner.workspaceId}/fleets/${fleetId}/schedules`,
      { token: owner.apiKey, body: { cron: "0 6 * * *", message: "early report" } },
    );
    expect(created.status, created.text).toBe(201);
    expect(created.body.sync).toBe("synced");
    const scheduleId = created.body.schedule_id;
    // A push that succeeds sends nothing.
    expect(await eventTypesAbout(`schedule:${scheduleId}`)).toEqual([]);
    // A process with no scheduler (as fleetctl is) cannot push: the row is marked failed.
    const api = await testApi();
    const unscheduled = { ...api.app.services, scheduler: null };
    await pushSchedule(unscheduled, scheduleId);
    const payload = await deliveryOf(receiver, watching, "schedule.sync_failed", scheduleId);
    expect(payload.data).toMatchObject({
      schedule_id: scheduleId,
      fleet_id: fleetId,
      cron: "0 6 * * *",
      sync: "failed",
      last_error: "no scheduler runs in this process",
    });
    // Failing again while failed (the reconciler's retries) sends nothing more.
    await pushSchedule(unscheduled, scheduleId);
    expect(await eventTypesAbout(`schedule:${scheduleId}`)).toEqual(["schedule.sync_failed"]);
    expect(await deliveriesTo(elsewhere)).toHaveLength(0);
  });

  it("budget.threshold_crossed for a named percent and budget.exhausted at the budget go out once a period", {
    timeout: 60_000,
  }, async () => {
    const owner = await seedTenant();
    const { fleetId, runner } = await workingFleet(owner);
    const types = ["budget.threshold_crossed", "budget.exhausted"];
    const { watching, elsewhere } = await watchers(owner, receiver, types, fleetId);
    // 100 is not among the fleet's percents: the spent budget goes out all the same.
    await setBudget(owner, fleetId, { period_budget_nanos: 1_000, alert_percents: [50] });
    const lease = await leaseOne(runner);
    expect((await usage(runner, lease, { cost_nanos: 400 })).status).toBe(200);
    expect((await usage(runner, lease, { cost_nanos: 600 })).status).toBe(200);
    const crossed = await deliveryOf(receiver, watching, "budget.threshold_crossed", fleetId);
    expect(crossed.data).toMatchObject({
      fleet_id: fleetId,
      period_budget_nanos: 1_000,
      alert_percents: [50],
      percent: 50,
      crossed_at_spend_nanos: 600,
      over_budget: false,
    });
    const over = await usage(runner, lease, { cost_nanos: 1_100 });
    expect(over.status, over.text).toBe(409);
    const exhausted = await deliveryOf(receiver, watching, "budget.exhausted", fleetId);
    expect(exhausted.data).toMatchObject({ fleet_id: fleetId, percent: 100, crossed_at_spend_nanos: 1_100 });
    // More spend crosses nothing new.
    expect((await usage(runner, lease, { cost_nanos: 1_300 })).status).toBe(409);
    expect(await eventTypesAbout(`fleet_budget:${fleetId}`)).toEqual(types);
    expect(await deliveriesTo(elsewhere)).toHaveLength(0);
  });

  it("event.received goes out with the event as its read shows it, with and without an Idempotency-Key", {
    timeout: 60_000,
  }, async () => {
    const owner = await seedTenant();
    const fleetId = await installFleet(owner);
    const { watching, elsewhere } = await watchers(owner, receiver, ["event.received"], fleetId);
    const path = `/v1/workspaces/${owner.workspaceId}/fleets/${fleetId}`;
    const send = (message: string, key?: string) =>
      call<{ event_id: string }>("POST", `${path}/messages`, {
        token: owner.apiKey,
        body: { message },
        headers: key === undefined ? {} : { "idempotency-key": key },
      });
    const plain = await send("hello there");
    expect(plain.status, plain.text).toBe(202);
    const keyed = await send("once only", "key-1");
    expect(keyed.status, keyed.text).toBe(202);
    for (const sent of [plain, keyed]) {
      const payload = await deliveryOf(receiver, watching, "event.received", sent.body.event_id);
      const read = await call("GET", `${path}/events/${sent.body.event_id}`, { token: owner.apiKey });
      expect(read.status, read.text).toBe(200);
      expect(payload.data).toEqual(read.body);
      expect(new Date(payload.timestamp).getTime()).toBe(read.body.created_at);
    }
    // A repeat of the key stores nothing and sends nothing; a stopped fleet refuses and sends nothing.
    const repeat = await send("once only", "key-1");
    expect(repeat.body.event_id).toBe(keyed.body.event_id);
    const stopped = await call("PATCH", path, { token: owner.apiKey, body: { status: "stopped" } });
    expect(stopped.status, stopped.text).toBe(200);
    expect((await send("too late")).status).toBe(409);
    expect((await send("too late", "key-2")).status).toBe(409);
    const api = await testApi();
    const events = await api.database.db
      .select()
      .from(webhookEvents)
      .where(eq(webhookEvents.fleetId, fleetId));
    expect(events.map((event) => event.resource).sort()).toEqual(
      [plain, keyed].map((sent) => `fleet_event:${sent.body.event_id}`).sort(),
    );
    expect(await deliveriesTo(elsewhere)).toHaveLength(0);
  });
});
