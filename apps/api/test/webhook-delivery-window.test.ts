import { and, eq, webhookDeliveries } from "@fleet/db";
import { startWebhookReceiver } from "@fleet/testing/webhook-receiver";
import { beforeAll, describe, expect, it } from "vitest";
import {
  deliverDueWebhooks,
  WEBHOOK_STOP_WAIT_MS,
  WebhookDeliverer,
} from "../src/services/webhook-endpoints/delivery.ts";
import { call, seedTenant, testApi, useIsolatedApi } from "./harness.ts";
import {
  deliveries,
  endpointPath,
  type Minted,
  ping,
  subscribe,
  until,
  useLocalReceiver,
  verified,
  verifiesWith,
} from "./webhook-delivery-fixtures.ts";

/** The delivery's row, read from the database (a claim in flight shows only there). */
async function deliveryRow(endpointId: string, eventId: string) {
  const api = await testApi();
  const [row] = await api.database.db
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.endpointId, endpointId), eq(webhookDeliveries.eventId, eventId)));
  return row!;
}

describe("the deliverer's window (the instance's own deliverer, dev mode: local receivers)", () => {
  useIsolatedApi({ FLEET_DEV_MODE: "true" });
  const fast = useLocalReceiver();
  const slow = useLocalReceiver();
  beforeAll(() => {
    // Past the 10 s timeout: each attempt to it holds its slot until it times out.
    slow().otherwise = { slow: 30_000 };
  });

  it("a receiver that never answers holds one slot: another endpoint's deliveries keep flowing meanwhile", {
    timeout: 60_000,
  }, async () => {
    const owner = await seedTenant();
    const stuck = await subscribe(owner, slow().url, ["gate.opened"]);
    const quick = await subscribe(owner, fast().url, ["gate.opened"]);
    const held = await ping(owner, stuck.id);
    expect(held.status, held.text).toBe(202);
    await slow().waitFor((d) => d.headers["webhook-id"] === held.body.id);
    // One ping after another, each waited for: with deliveries in passes, each would wait for the pass
    // held by the slow receiver (ten seconds, its timeout).
    const ids: string[] = [];
    for (let i = 0; i < 15; i++) {
      const sent = await ping(owner, quick.id);
      expect(sent.status, sent.text).toBe(202);
      ids.push(sent.body.id);
      await fast().waitFor((d) => d.headers["webhook-id"] === sent.body.id, 5_000);
    }
    // All went while the slow attempt was still out: it has no outcome yet.
    const inFlight = await deliveryRow(stuck.id, held.body.id);
    expect(inFlight).toMatchObject({ status: "pending", attempts: 1 });
    expect((await deliveries(owner, stuck.id)).items[0]!.attempts).toEqual([]);
    // Each delivery came once, in order (pings to one endpoint are one resource).
    const got = fast().received.map((d) => String(d.headers["webhook-id"]));
    expect(got).toEqual(ids);
    // The slow attempt ends as a timeout, and is retried on the schedule.
    const timedOut = await until(async () => {
      const found = (await deliveries(owner, stuck.id)).items.find((item) => item.id === held.body.id);
      return found !== undefined && found.attempts.length > 0 ? found : undefined;
    }, 20_000);
    expect(timedOut.status).toBe("pending");
    expect(timedOut.attempts[0]).toMatchObject({ attempt: 1, status_code: null, error: "timeout" });
  });

  it("deliveries sent at once to one endpoint arrive in order, each once", { timeout: 60_000 }, async () => {
    const owner = await seedTenant();
    const endpoint = await subscribe(owner, `${fast().url}/ordered`, ["gate.opened"]);
    const sent = await Promise.all(Array.from({ length: 30 }, () => ping(owner, endpoint.id)));
    for (const one of sent) expect(one.status, one.text).toBe(202);
    const ids = sent.map((one) => one.body.id).sort();
    const arrived = await until(async () => {
      const got = fast().received.filter((d) => d.path.endsWith("/ordered"));
      return got.length >= ids.length ? got : undefined;
    });
    // Event ids are UUIDv7: their order is the order each must arrive in.
    expect(arrived.map((d) => String(d.headers["webhook-id"]))).toEqual(ids);
  });

  it("a rotation takes effect at the next delivery: both secrets sign during the overlap, then only the new", {
    timeout: 60_000,
  }, async () => {
    const owner = await seedTenant();
    const endpoint = await subscribe(owner, `${fast().url}/rotated`, ["gate.opened"]);
    const delivered = async () => {
      const sent = await ping(owner, endpoint.id);
      expect(sent.status, sent.text).toBe(202);
      return fast().waitFor((d) => d.headers["webhook-id"] === sent.body.id);
    };
    const rotate = async () => {
      const rotated = await call<Minted>("POST", `${endpointPath(owner, endpoint.id)}/rotate-secret`, {
        token: owner.apiKey,
      });
      expect(rotated.status, rotated.text).toBe(201);
      return rotated.body.secret;
    };
    const first = await delivered();
    expect(verified(endpoint.secret, first).type).toBe("ping");
    const second = await rotate();
    const overlap = await delivered();
    expect(verifiesWith(second, overlap)).toBe(true);
    expect(verifiesWith(endpoint.secret, overlap)).toBe(true);
    expect(String(overlap.headers["webhook-signature"]).split(" ")).toHaveLength(2);
    const third = await rotate();
    const after = await delivered();
    expect(verifiesWith(third, after)).toBe(true);
    expect(verifiesWith(second, after)).toBe(true);
    // A second rotation within the 24 hours drops the first secret at once.
    expect(verifiesWith(endpoint.secret, after)).toBe(false);
  });
});

describe("deliverers on one database (FLEET_WEBHOOK_DELIVERY=false: the API delivers nothing itself)", () => {
  useIsolatedApi({ FLEET_DEV_MODE: "true", FLEET_WEBHOOK_DELIVERY: "false" });
  const receiver = useLocalReceiver();

  it("three deliverers racing over the same backlog send each attempt once, each resource in order", {
    timeout: 60_000,
  }, async () => {
    const api = await testApi();
    expect(api.app.services.webhookOutbox ?? null).toBeNull();
    const owner = await seedTenant();
    const endpoints: Minted[] = [];
    for (let i = 0; i < 12; i++)
      endpoints.push(await subscribe(owner, `${receiver().url}/${i}`, ["gate.opened"]));
    const queued = new Map<string, string[]>();
    for (let round = 0; round < 4; round++) {
      for (const endpoint of endpoints) {
        const sent = await ping(owner, endpoint.id);
        expect(sent.status, sent.text).toBe(202);
        queued.set(endpoint.id, [...(queued.get(endpoint.id) ?? []), sent.body.id]);
      }
    }
    // Held: nothing delivers on this API.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(receiver().received).toHaveLength(0);

    const counts = await Promise.all([1, 2, 3].map(() => deliverDueWebhooks(api.app.services, () => {})));
    expect(counts.reduce((a, b) => a + b, 0)).toBe(48);
    expect(receiver().received).toHaveLength(48);
    endpoints.forEach((endpoint, i) => {
      const got = receiver().received.filter((d) => d.path.endsWith(`/${i}`));
      expect(got.map((d) => String(d.headers["webhook-id"]))).toEqual(queued.get(endpoint.id));
      for (const delivery of got) expect(verifiesWith(endpoint.secret, delivery)).toBe(true);
    });
    const rows = await api.database.db.select().from(webhookDeliveries);
    expect(rows.every((row) => row.status === "succeeded" && row.attempts === 1)).toBe(true);
  });

  it("a claim left by an instance that died is taken over once it lapses, not before", {
    timeout: 60_000,
  }, async () => {
    const api = await testApi();
    const owner = await seedTenant();
    const endpoint = await subscribe(owner, `${receiver().url}/taken-over`, ["gate.opened"]);
    const sent = await ping(owner, endpoint.id);
    expect(sent.status, sent.text).toBe(202);
    // What a claim leaves (its attempt counted, the next one pushed 60 s ahead), with no deliverer alive.
    const now = Date.now();
    await api.database.db
      .update(webhookDeliveries)
      .set({ attempts: 1, nextAttemptAt: now + 60_000 })
      .where(and(eq(webhookDeliveries.endpointId, endpoint.id), eq(webhookDeliveries.eventId, sent.body.id)));
    const from = receiver().received.length;
    expect(await deliverDueWebhooks(api.app.services, () => {})).toBe(0);
    expect(receiver().received.length).toBe(from);
    const later = now + 61_000;
    expect(await deliverDueWebhooks({ ...api.app.services, now: () => later }, () => {})).toBe(1);
    const arrived = await receiver().waitFor((d) => d.headers["webhook-id"] === sent.body.id, 5_000, from);
    expect(verifiesWith(endpoint.secret, arrived)).toBe(true);
    expect(await deliveryRow(endpoint.id, sent.body.id)).toMatchObject({ status: "succeeded", attempts: 2 });
  });
  it("stopping records what ends within the wait, abandons what does not, and claims nothing more", {
    timeout: 60_000,
  }, async () => {
    const api = await testApi();
    const owner = await seedTenant();
    const slow = await startWebhookReceiver();
    slow.otherwise = { slow: 8_000 };
    const medium = await startWebhookReceiver();
    medium.otherwise = { slow: 1_000 };
    try {
      // One answers within the stop's wait, the other long after it.
      const endpoint = await subscribe(owner, medium.url, ["gate.opened"]);
      const second = await subscribe(owner, slow.url, ["gate.opened"]);
      const other = await subscribe(owner, `${receiver().url}/after-stop`, ["gate.opened"]);
      const quick = await ping(owner, endpoint.id);
      const stuck = await ping(owner, second.id);
      const errors: unknown[] = [];
      const deliverer = new WebhookDeliverer(
        api.app.services,
        () => {},
        (error) => errors.push(error),
      );
      deliverer.kick();
      await until(
        async () => (slow.received.length + medium.received.length >= 2 ? true : undefined),
        10_000,
      );
      const stopping = performance.now();
      await deliverer.stop();
      const took = performance.now() - stopping;
      expect(took).toBeGreaterThanOrEqual(WEBHOOK_STOP_WAIT_MS - 100);
      // The one answered within the wait is recorded; the other is abandoned, its claim left to lapse (had
      // the stop waited for its answer, it would be recorded too).
      expect(await deliveryRow(endpoint.id, quick.body.id)).toMatchObject({
        status: "succeeded",
        attempts: 1,
      });
      const left = await deliveryRow(second.id, stuck.body.id);
      expect(left).toMatchObject({ status: "pending", attempts: 1 });
      expect(left.nextAttemptAt).toBeGreaterThan(Date.now() + 50_000);
      // A stopped deliverer claims nothing more, and its late answer writes nothing.
      const later = await ping(owner, other.id);
      deliverer.kick();
      await new Promise((resolve) => setTimeout(resolve, 3_500));
      expect(await deliveryRow(other.id, later.body.id)).toMatchObject({ status: "pending", attempts: 0 });
      expect((await deliveries(owner, second.id)).items[0]!.attempts).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await slow.close();
      await medium.close();
    }
  });
});
