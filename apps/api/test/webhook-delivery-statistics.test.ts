import { resultRows, sql } from "@fleet/db";
import { describe, expect, it } from "vitest";
import { WebhookDeliverer } from "../src/services/webhook-endpoints/delivery.ts";
import { call, seedTenant, type Tenant, testApi, useIsolatedApi } from "./harness.ts";
import { endpointPath, subscribe } from "./webhook-delivery-fixtures.ts";

/** What the statistics last saw of the pending deliveries (the due index's row count; -1: never). */
async function pendingSeen(): Promise<number> {
  const api = await testApi();
  const [row] = resultRows<{ seen: number | string }>(
    await api.database.db.execute(
      sql`select reltuples as seen from pg_class where oid = 'webhook_deliveries_due_idx'::regclass`,
    ),
  );
  return Number(row!.seen);
}

/**
 * A backlog written at once, as a replay or an outage's catch-up writes it: `count` events, each pending to
 * the endpoint (disabled, so nothing is claimed and the rows stay as written).
 */
async function backlog(owner: Tenant, endpointId: string, count: number, from: number) {
  const api = await testApi();
  const at = Date.now();
  await api.database.db.execute(sql`
    with ev as (
      insert into webhook_events (id, tenant_id, workspace_id, fleet_id, type, resource, data, created_at,
        fanned_out)
      select gen_random_uuid(), ${owner.tenantId}::uuid, ${owner.workspaceId}::uuid, null, 'gate.opened',
        'approval_gate:' || g, '{}'::jsonb, ${at}::bigint, true
      from generate_series(${from}::int, ${from + count - 1}::int) g
      returning id, resource
    )
    insert into webhook_deliveries (endpoint_id, event_id, resource, type, status, attempts, next_attempt_at,
      created_at, updated_at)
    select ${endpointId}::uuid, ev.id, ev.resource, 'gate.opened', 'pending', 0, ${at}::bigint, ${at}::bigint,
      ${at}::bigint
    from ev`);
}

describe("the deliverer keeps the deliveries' statistics in step with a backlog", () => {
  useIsolatedApi({ FLEET_DEV_MODE: "true" });

  it("a burst the statistics have not seen is analyzed before it is claimed; a handful is not", {
    timeout: 60_000,
  }, async () => {
    const api = await testApi();
    const owner = await seedTenant();
    const endpoint = await subscribe(owner, "http://127.0.0.1:9/never", ["gate.opened"]);
    const disabled = await call("PATCH", endpointPath(owner, endpoint.id), {
      token: owner.apiKey,
      body: { enabled: false },
    });
    expect(disabled.status, disabled.text).toBe(200);
    await api.database.db.execute(sql`analyze webhook_deliveries`);
    expect(await pendingSeen()).toBeLessThan(100);
    const drain = async () => {
      const errors: unknown[] = [];
      const deliverer = new WebhookDeliverer(
        api.app.services,
        () => {},
        (error) => errors.push(error),
      );
      await deliverer.drain();
      expect(errors).toEqual([]);
    };

    // A handful pending: every plan is cheap, nothing is analyzed.
    await backlog(owner, endpoint.id, 20, 0);
    await drain();
    expect(await pendingSeen()).toBeLessThan(100);

    // A burst: analyzed before the claim, so the statistics see it.
    await backlog(owner, endpoint.id, 1_500, 20);
    await drain();
    expect(await pendingSeen()).toBeGreaterThanOrEqual(1_000);
  });
});
