import type { OutputOf } from "@fleet/contracts";
import type { createSchedule } from "@fleet/contracts/schedules/create-schedule";
import type { getSchedule } from "@fleet/contracts/schedules/get-schedule";
import type { syncSchedule } from "@fleet/contracts/schedules/sync-schedule";
import { fleetEvents, sql } from "@fleet/db";
import { describe, expect, it } from "vitest";
import { installFleet, seedFleetOn } from "./fleet-fixtures.ts";
import {
  callAt,
  databaseKind,
  isolatedDatabase,
  seedTenant,
  startApi,
  testApi,
  testDatabaseUrl,
} from "./harness.ts";
import { proxyTo } from "./tcp-proxy.ts";

const METRICS_TOKEN = "scheduler-faults-scrape-token";

// Faults of a scheduler on its own connection only exist on PostgreSQL: the embedded one runs in-process.
describe.runIf(databaseKind === "postgres")("the scheduler out of reach, and several instances", () => {
  it("answers 201 with sync failed while the scheduler is unreachable, and converges once it is back", {
    timeout: 60_000,
  }, async () => {
    const { proxy, url: schedulerUrl } = await proxyTo(testDatabaseUrl());
    proxy.interrupt();
    const api = await startApi({
      FLEET_SCHEDULER_URL: schedulerUrl,
      FLEET_SCHEDULER_DEADLINE_MS: "1000",
      FLEET_RECONCILE_INTERVAL_MS: "300",
      FLEET_METRICS_TOKEN: METRICS_TOKEN,
    });
    try {
      const tenant = await seedTenant();
      const fleetId = await installFleet(tenant);
      const path = `/v1/workspaces/${tenant.workspaceId}/fleets/${fleetId}/schedules`;
      const notReady = await callAt(api.baseUrl, "GET", "/readyz");
      expect(notReady.status).toBe(503);
      const created = await callAt<OutputOf<typeof createSchedule>>(api.baseUrl, "POST", path, {
        token: tenant.apiKey,
        body: { cron: "0 6 * * *", message: "early report" },
      });
      expect(created.status, created.text).toBe(201);
      expect(created.body.sync).toBe("failed");
      expect(created.body.last_error).toMatch(/scheduler/);
      const scraped = await callAt(api.baseUrl, "GET", "/metrics", { token: METRICS_TOKEN });
      const failures = /^fleet_scheduler_sync_failures_total (\d+)$/m.exec(scraped.text);
      expect(Number(failures?.[1])).toBeGreaterThanOrEqual(1);

      proxy.restore();
      await expect
        .poll(async () => (await callAt(api.baseUrl, "GET", "/readyz")).status, { timeout: 30_000 })
        .toBe(200);
      await expect
        .poll(
          async () =>
            (
              await callAt<OutputOf<typeof getSchedule>>(
                api.baseUrl,
                "GET",
                `${path}/${created.body.schedule_id}`,
                {
                  token: tenant.apiKey,
                },
              )
            ).body.sync,
          { timeout: 15_000 },
        )
        .toBe("synced");
      const retried = await callAt<OutputOf<typeof syncSchedule>>(
        api.baseUrl,
        "POST",
        `${path}/${created.body.schedule_id}/sync`,
        { token: tenant.apiKey },
      );
      expect(retried.body).toMatchObject({ sync: "synced", last_error: null });
    } finally {
      await api.app.close();
      await api.database.close();
      await proxy.stop();
    }
  });

  it("records a push the scheduler does not answer within its deadline as failed, and sync retries at once", {
    timeout: 60_000,
  }, async () => {
    // A database of its own: the run's shared instances' reconcilers would converge the failed row.
    const database = await isolatedDatabase();
    const { proxy, url: schedulerUrl } = await proxyTo(database.url);
    // No reconciler pass during the test: a row left failed stays failed until someone syncs it.
    const api = await startApi({
      DATABASE_URL: database.url,
      FLEET_SCHEDULER_URL: schedulerUrl,
      FLEET_SCHEDULER_DEADLINE_MS: "1000",
      FLEET_RECONCILE_INTERVAL_MS: "600000",
    });
    try {
      const tenant = await seedFleetOn(api);
      const path = `/v1/workspaces/${tenant.workspaceId}/fleets/${tenant.fleetId}/schedules`;
      await expect
        .poll(async () => (await callAt(api.baseUrl, "GET", "/readyz")).status, { timeout: 30_000 })
        .toBe(200);
      proxy.stall(); // the scheduler's store hangs: connected, answering nothing
      const started = Date.now();
      const created = await callAt<OutputOf<typeof createSchedule>>(api.baseUrl, "POST", path, {
        token: tenant.apiKey,
        body: { cron: "0 7 * * *", message: "hung scheduler" },
      });
      expect(created.status, created.text).toBe(201);
      expect(Date.now() - started).toBeLessThan(4_000); // held for the deadline, not for the hang
      expect(created.body).toMatchObject({ sync: "failed" });
      expect(created.body.last_error).toMatch(/within 1000 ms/);

      proxy.restore();
      const item = `${path}/${created.body.schedule_id}`;
      const stillFailed = await callAt<OutputOf<typeof getSchedule>>(api.baseUrl, "GET", item, {
        token: tenant.apiKey,
      });
      expect(stillFailed.body.sync).toBe("failed");
      const synced = await callAt<OutputOf<typeof syncSchedule>>(api.baseUrl, "POST", `${item}/sync`, {
        token: tenant.apiKey,
      });
      expect(synced.status, synced.text).toBe(200);
      expect(synced.body).toMatchObject({ sync: "synced", last_error: null });
    } finally {
      proxy.restore();
      await api.app.close();
      await api.database.close();
      await proxy.stop();
      await database.drop();
    }
  });

  it("fires each cron instant once with two API instances on one PostgreSQL", {
    timeout: 150_000,
  }, async () => {
    const second = await startApi();
    try {
      const first = await testApi();
      const tenant = await seedTenant();
      const fleetId = await installFleet(tenant);
      const created = await callAt<OutputOf<typeof createSchedule>>(
        second.baseUrl,
        "POST",
        `/v1/workspaces/${tenant.workspaceId}/fleets/${fleetId}/schedules`,
        { token: tenant.apiKey, body: { cron: "* * * * *", message: "tick" } },
      );
      expect(created.status).toBe(201);
      const fires = () =>
        first.database.db
          .select({ createdAt: fleetEvents.createdAt })
          .from(fleetEvents)
          .where(sql`${fleetEvents.actor} = ${`cron:${created.body.schedule_id}`}`);
      // Past the next minute's instant, and a few seconds for both instances' cron passes.
      const nextMinute = Math.ceil((Date.now() + 1) / 60_000) * 60_000;
      await new Promise((resolve) => setTimeout(resolve, nextMinute - Date.now() + 6_000));
      // Each instant since the schedule was registered fired once, whichever instance sent it: the next
      // minute's, and the one before it when the schedule was registered in the instant before a minute
      // turned (a create that straddles the boundary).
      const minutes = (await fires()).map((row) => Math.floor(row.createdAt / 60_000));
      expect(new Set(minutes).size, `fired at ${minutes.join(", ")}`).toBe(minutes.length);
      expect(minutes).toContain(nextMinute / 60_000);
      expect(minutes.every((minute) => minute >= nextMinute / 60_000 - 1)).toBe(true);
    } finally {
      await second.app.close();
      await second.database.close();
    }
  });
});
