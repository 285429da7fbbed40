import { WEBHOOK_EVENT_KEEP_MS } from "@fleet/contracts/webhook-endpoints/webhook-delivery";
import { describe, expect, it } from "vitest";
import { pruneWebhookEvents } from "../src/services/webhook-endpoints/prune-events.ts";
import { call, seedTenant, testApi, useIsolatedApi } from "./harness.ts";
import {
  deliveries,
  endpointPath,
  ping,
  settled,
  subscribe,
  useLocalReceiver,
} from "./webhook-delivery-fixtures.ts";

/** The outbox keeps events for the replay window and a day: older ones go, with their deliveries. */
describe("webhook events past the replay window are pruned", () => {
  useIsolatedApi({ FLEET_DEV_MODE: "true" });
  const local = useLocalReceiver();

  const pruneAt = async (now: number, batch?: number) => {
    const api = await testApi();
    return pruneWebhookEvents({ ...api.app.services, now: () => now }, batch);
  };
  const ids = async (owner: Awaited<ReturnType<typeof seedTenant>>, endpointId: string) =>
    (await deliveries(owner, endpointId)).items.map((item) => item.id).sort();

  it("a settled delivery's event goes after the window, a pending one stays until its endpoint is disabled", {
    timeout: 90_000,
  }, async () => {
    const receiver = local();
    const owner = await seedTenant();
    const endpoint = await subscribe(owner, receiver.url, ["gate.opened"]);
    const done = (await ping(owner, endpoint.id)).body;
    await settled(owner, endpoint.id, done.id, "succeeded");
    receiver.otherwise = 500;
    try {
      const retrying = (await ping(owner, endpoint.id)).body;
      await settled(owner, endpoint.id, retrying.id, "pending");

      // At the edge of the window nothing is old enough.
      await pruneAt(done.created_at + WEBHOOK_EVENT_KEEP_MS);
      expect(await ids(owner, endpoint.id)).toEqual([done.id, retrying.id].sort());

      // Past it, the settled event goes with its delivery; the one still retrying stays.
      expect(await pruneAt(retrying.created_at + WEBHOOK_EVENT_KEEP_MS + 1)).toBeGreaterThanOrEqual(1);
      expect(await ids(owner, endpoint.id)).toEqual([retrying.id]);
      const retryGone = await call(
        "POST",
        `${endpointPath(owner, endpoint.id)}/deliveries/${done.id}/retry`,
        {
          token: owner.apiKey,
        },
      );
      expect(retryGone.status, retryGone.text).toBe(404);

      // A disabled endpoint's pending delivery no longer holds its event.
      const disabled = await call("PATCH", endpointPath(owner, endpoint.id), {
        token: owner.apiKey,
        body: { enabled: false },
      });
      expect(disabled.status, disabled.text).toBe(200);
      await pruneAt(retrying.created_at + WEBHOOK_EVENT_KEEP_MS + 1);
      expect(await ids(owner, endpoint.id)).toEqual([]);
    } finally {
      receiver.otherwise = 200;
    }
  });

  it("a backlog larger than a batch is drained batch after batch, oldest first", {
    timeout: 90_000,
  }, async () => {
    const receiver = local();
    const owner = await seedTenant();
    const endpoint = await subscribe(owner, receiver.url, ["gate.opened"]);
    const sent = [];
    for (let i = 0; i < 3; i += 1) sent.push((await ping(owner, endpoint.id)).body);
    for (const one of sent) await settled(owner, endpoint.id, one.id, "succeeded");
    const latest = Math.max(...sent.map((one) => one.created_at));
    // Only the oldest is past the window: a batch of one takes it, and the next finds no more.
    await pruneAt(sent[0]!.created_at + WEBHOOK_EVENT_KEEP_MS + 1, 1);
    const left = await ids(owner, endpoint.id);
    expect(left).not.toContain(sent[0]!.id);
    expect(await pruneAt(latest + WEBHOOK_EVENT_KEEP_MS + 1, 1)).toBeGreaterThanOrEqual(left.length);
    expect(await ids(owner, endpoint.id)).toEqual([]);
  });
});
