import { eq, inArray, webhookDeliveries, webhookEvents } from "@fleet/db";
import { describe, expect, it } from "vitest";
import { FAN_OUT_MAX, fanOutEvents } from "../src/services/webhook-endpoints/fan-out.ts";
import { installFleet, messageFleet } from "./fleet-fixtures.ts";
import { call, seedTenant, testApi, useIsolatedApi } from "./harness.ts";
import { endpointIn, endpointsPath } from "./webhook-endpoint-fixtures.ts";

const resourceOf = (eventId: string) => `fleet_event:${eventId}`;

async function outgoing(eventIds: string[]) {
  const api = await testApi();
  return api.database.db
    .select()
    .from(webhookEvents)
    .where(inArray(webhookEvents.resource, eventIds.map(resourceOf)));
}

async function deliveredTo(webhookEventId: string) {
  const api = await testApi();
  const rows = await api.database.db
    .select()
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.eventId, webhookEventId));
  return rows.map((row) => row.endpointId).sort();
}

/** A tenant with one fleet and `count` endpoints subscribed to `event.received`. */
async function subscribedFleet(count: number) {
  const owner = await seedTenant();
  const fleetId = await installFleet(owner);
  const endpoints = [];
  for (let i = 0; i < count; i++)
    endpoints.push(await endpointIn(owner, { event_types: ["event.received"] }));
  return { owner, fleetId, endpoints };
}

/** Every delivery of these outgoing events. */
async function deliveriesOf(webhookEventIds: string[]) {
  const api = await testApi();
  return api.database.db
    .select()
    .from(webhookDeliveries)
    .where(inArray(webhookDeliveries.eventId, webhookEventIds));
}

/**
 * The act writes its outgoing event alone; a deliverer writes the deliveries. This API delivers nothing
 * itself (FLEET_WEBHOOK_DELIVERY=false), so the tests fan out by hand, as another instance's deliverer
 * would.
 */
describe("the outbox's fan-out (FLEET_WEBHOOK_DELIVERY=false: the API fans out nothing itself)", () => {
  useIsolatedApi({ FLEET_WEBHOOK_DELIVERY: "false" });

  it("an act writes its event alone; the fan-out writes one delivery per endpoint subscribed when it runs", {
    timeout: 60_000,
  }, async () => {
    const api = await testApi();
    const owner = await seedTenant();
    const stranger = await seedTenant();
    const fleetId = await installFleet(owner);
    const otherFleetId = await installFleet(owner);
    const every = await endpointIn(owner, { event_types: ["event.received"] });
    const ofFleet = await endpointIn(owner, { event_types: ["event.received"], fleet_id: fleetId });
    const ofOtherFleet = await endpointIn(owner, { event_types: ["event.received"], fleet_id: otherFleetId });
    await endpointIn(owner, { event_types: ["event.received"], enabled: false });
    await endpointIn(owner, { event_types: ["event.failed"] });
    await endpointIn(stranger, { event_types: ["event.received"] });
    const disabledAfter = await endpointIn(owner, { event_types: ["event.received"] });

    const eventId = await messageFleet(owner, fleetId);
    const [written] = await outgoing([eventId]);
    expect(written).toMatchObject({ type: "event.received", fannedOut: false });
    expect(await deliveredTo(written!.id)).toEqual([]);
    // Between the act and its fan-out, the subscriptions as they are at the fan-out count.
    const later = await endpointIn(owner, { event_types: ["event.received"] });
    const off = await call("PATCH", `${endpointsPath(owner)}/${disabledAfter.id}`, {
      token: owner.apiKey,
      body: { enabled: false },
    });
    expect(off.status, off.text).toBe(200);

    expect(await fanOutEvents(api.app.services)).toBe(1);
    const expected = [every.id, ofFleet.id, later.id].sort();
    expect(await deliveredTo(written!.id)).toEqual(expected);
    const [marked] = await outgoing([eventId]);
    expect(marked!.fannedOut).toBe(true);
    // Nothing is left to fan out, and nothing is written twice.
    expect(await fanOutEvents(api.app.services)).toBe(0);
    expect(await deliveredTo(written!.id)).toEqual(expected);

    // With no endpoint subscribed, an act writes no event at all.
    const silentFleet = await installFleet(owner);
    for (const endpoint of [every, ofFleet, ofOtherFleet, later]) {
      const disabled = await call("PATCH", `${endpointsPath(owner)}/${endpoint.id}`, {
        token: owner.apiKey,
        body: { enabled: false },
      });
      expect(disabled.status, disabled.text).toBe(200);
    }
    expect(await outgoing([await messageFleet(owner, silentFleet)])).toEqual([]);
  });

  it("a replay that reached an event first keeps its delivery; fan-outs racing write each delivery once", {
    timeout: 60_000,
  }, async () => {
    const api = await testApi();
    const { owner, fleetId, endpoints } = await subscribedFleet(3);
    const first = await messageFleet(owner, fleetId);
    const replayed = await call<{ queued: number }>(
      "POST",
      `${endpointsPath(owner)}/${endpoints[0]!.id}/replay`,
      {
        token: owner.apiKey,
        body: { since: Date.now() - 60_000 },
      },
    );
    expect(replayed.status, replayed.text).toBe(202);
    expect(replayed.body.queued).toBe(1);

    // More than one fan-out's worth, sent at once from many connections.
    const count = FAN_OUT_MAX + 22;
    const sent = await Promise.all(
      Array.from({ length: count }, (_, i) => messageFleet(owner, fleetId, `message ${i}`)),
    );
    // Three deliverers' fan-outs at once, each going on while it takes a full batch, as a deliverer does.
    const fannedOut = await Promise.all(
      [1, 2, 3].map(async () => {
        const taken: number[] = [];
        do taken.push(await fanOutEvents(api.app.services));
        while (taken.at(-1) === FAN_OUT_MAX);
        return taken;
      }),
    );
    // Every event is marked once, by one of them, and none took more than a fan-out's worth.
    expect(fannedOut.flat().reduce((a, b) => a + b, 0)).toBe(count + 1);
    expect(Math.max(...fannedOut.flat())).toBe(FAN_OUT_MAX);

    const events = await outgoing([first, ...sent]);
    expect(events).toHaveLength(count + 1);
    expect(events.every((event) => event.fannedOut)).toBe(true);
    const rows = await deliveriesOf(events.map((event) => event.id));
    expect(rows).toHaveLength((count + 1) * endpoints.length);
    for (const event of events) {
      expect(
        rows
          .filter((row) => row.eventId === event.id)
          .map((row) => row.endpointId)
          .sort(),
      ).toEqual(endpoints.map((endpoint) => endpoint.id).sort());
    }
  });

  it("replays racing fan-outs over the same events all finish, each delivery written once", {
    timeout: 60_000,
  }, async () => {
    const api = await testApi();
    const { owner, fleetId, endpoints } = await subscribedFleet(4);
    const sent = await Promise.all(
      Array.from({ length: 60 }, (_, i) => messageFleet(owner, fleetId, `race ${i}`)),
    );
    const since = Date.now() - 60_000;
    const answers = await Promise.all([
      ...endpoints.map((endpoint) =>
        call("POST", `${endpointsPath(owner)}/${endpoint.id}/replay`, {
          token: owner.apiKey,
          body: { since },
        }),
      ),
      ...[1, 2].map(() => fanOutEvents(api.app.services)),
    ]);
    for (const answer of answers.slice(0, endpoints.length)) {
      const replayed = answer as Awaited<ReturnType<typeof call>>;
      expect(replayed.status, replayed.text).toBe(202);
    }
    while ((await fanOutEvents(api.app.services)) > 0);
    const events = await outgoing(sent);
    expect(events.every((event) => event.fannedOut)).toBe(true);
    const rows = await deliveriesOf(events.map((event) => event.id));
    expect(rows).toHaveLength(sent.length * endpoints.length);
  });
});
