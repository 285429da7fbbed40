import type { WebhookEndpointItem } from "@fleet/contracts/webhook-endpoints/webhook-endpoint";
import { describe, expect, it } from "vitest";
import { disableGone } from "../src/services/webhook-endpoints/gone-endpoints.ts";
import { leasedFleet, openGate } from "./approval-fixtures.ts";
import { call, seedTenant, sleep, type Tenant, testApi, useIsolatedApi } from "./harness.ts";
import {
  endpointPath,
  endpointRead,
  ping,
  subscribe,
  until,
  useLocalReceiver,
} from "./webhook-delivery-fixtures.ts";
import { endpointsPath } from "./webhook-endpoint-fixtures.ts";

type AuditEvent = { actor: string; action: string; target: string; at: number; details: unknown };

/** The audit log's rows of service disables in the owner's workspace, through its read route. */
async function disables(owner: Tenant): Promise<AuditEvent[]> {
  const audit = await call<{ items: AuditEvent[] }>(
    "GET",
    `/v1/workspaces/${owner.workspaceId}/audit?action=webhook_endpoint.disable`,
    { token: owner.apiKey },
  );
  expect(audit.status, audit.text).toBe(200);
  return audit.body.items;
}

describe("an endpoint the service disables after a 410 (dev mode: a local receiver)", () => {
  useIsolatedApi({ FLEET_DEV_MODE: "true" });
  const local = useLocalReceiver();

  it("is disabled once, with one audit row naming the reason, the URL's origin and the status; enabling clears it", {
    timeout: 60_000,
  }, async () => {
    const receiver = local();
    const owner = await seedTenant();
    // A path and query a receiver might keep a token in: the audit row never carries them.
    const url = new URL("/hooks/private-path?token=t0ps3cret", receiver.url).toString();
    const endpoint = await subscribe(owner, url, ["gate.opened"]);
    const before = Date.now();
    receiver.otherwise = 410;
    try {
      // Two resources (the ping's and the gate's), so two 410s can be in flight together.
      await ping(owner, endpoint.id);
      await openGate(await leasedFleet(owner));
      const read = await until(async () => {
        const got = await endpointRead(owner, endpoint.id);
        return got.enabled ? undefined : got;
      });
      expect(read).toMatchObject({ enabled: false, disabled_reason: "gone" });
      expect(read.disabled_at).toBeGreaterThanOrEqual(before);
      expect(read.disabled_at).toBeLessThanOrEqual(Date.now());
      // Whatever else was in flight has settled: a further 410 finds it disabled and writes nothing.
      await sleep(1_500);
      const rows = await disables(owner);
      expect(rows).toEqual([
        expect.objectContaining({
          actor: "service:webhook-delivery",
          action: "webhook_endpoint.disable",
          target: `webhook_endpoint:${endpoint.id}`,
          at: read.disabled_at,
          details: { reason: "gone", origin: new URL(receiver.url).origin, status: 410 },
        }),
      ]);
      expect(JSON.stringify(rows)).not.toMatch(/private-path|t0ps3cret/);
      // The list says the same as the read.
      const listed = await call<{ items: WebhookEndpointItem[] }>("GET", endpointsPath(owner), {
        token: owner.apiKey,
      });
      expect(listed.body.items.find((item) => item.id === endpoint.id)).toMatchObject({
        disabled_reason: "gone",
        disabled_at: read.disabled_at,
      });
    } finally {
      receiver.otherwise = 200;
    }
    const enabled = await call<WebhookEndpointItem>("PATCH", endpointPath(owner, endpoint.id), {
      token: owner.apiKey,
      body: { enabled: true },
    });
    expect(enabled.status, enabled.text).toBe(200);
    expect(enabled.body).toMatchObject({ enabled: true, disabled_reason: null, disabled_at: null });
  });

  it("of two transactions disabling it on a 410 at once, only the one that flips it writes the audit row", {
    timeout: 60_000,
  }, async () => {
    const receiver = local();
    const owner = await seedTenant();
    const endpoint = await subscribe(owner, receiver.url, ["gate.opened"]);
    const { db } = (await testApi()).database;
    const now = Date.now();
    // The first holds the row's lock a while after its update; the second's update waits on it, then
    // finds the row disabled (PostgreSQL; PGlite's one connection runs them one after the other).
    const first = db.transaction(async (tx) => {
      const flipped = await disableGone(tx, [endpoint.id], now);
      await sleep(300);
      return flipped;
    });
    await sleep(50);
    const second = db.transaction((tx) => disableGone(tx, [endpoint.id], now + 1));
    expect(await Promise.all([first, second])).toEqual([[endpoint.id], []]);
    expect(await disables(owner)).toHaveLength(1);
    expect((await endpointRead(owner, endpoint.id)).disabled_at).toBe(now);
  });

  it("a 410 for an endpoint a person disabled changes nothing and writes no audit row", async () => {
    const receiver = local();
    const owner = await seedTenant();
    const endpoint = await subscribe(owner, receiver.url, ["gate.opened"], { enabled: false });
    const { db } = (await testApi()).database;
    expect(await db.transaction((tx) => disableGone(tx, [endpoint.id], Date.now()))).toEqual([]);
    expect(await endpointRead(owner, endpoint.id)).toMatchObject({
      enabled: false,
      disabled_reason: null,
      disabled_at: null,
    });
    expect(await disables(owner)).toEqual([]);
  });
});
