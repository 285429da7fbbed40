import type { scheduleView } from "@fleet/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import { newId } from "../src/runtime/ids.ts";
import type { ScheduleEngine } from "../src/runtime/schedule-engine.ts";
import { seedFleetOn } from "./fleet-fixtures.ts";
import { callAt, isolatedDatabase, startApi, type TestApi } from "./harness.ts";

/**
 * An API whose reconciler passes every 300 ms, on a database of its own: on the run's shared database
 * it would converge other files' schedules that those files leave failed on purpose.
 */
async function startReconcilingApi(): Promise<{ api: TestApi; drop: () => Promise<void> }> {
  const { url, drop } = await isolatedDatabase();
  const api = await startApi({ DATABASE_URL: url, FLEET_RECONCILE_INTERVAL_MS: "300" });
  return { api, drop };
}

let api: TestApi;
let drop: () => Promise<void>;
let engine: ScheduleEngine;
let schedulesPath: string;
let apiKey: string;

beforeAll(async () => {
  ({ api, drop } = await startReconcilingApi());
  engine = api.app.services.scheduler!;
  for (const started = Date.now(); !engine.available; ) {
    if (Date.now() - started > 30_000) throw new Error("the scheduler did not start");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const seeded = await seedFleetOn(api);
  apiKey = seeded.apiKey;
  schedulesPath = `/v1/workspaces/${seeded.workspaceId}/fleets/${seeded.fleetId}/schedules`;
}, 60_000);

afterAll(async () => {
  await api?.app.close();
  await api?.database.close();
  await drop?.();
});

type ScheduleView = z.output<typeof scheduleView>;

async function createSchedule(body: Record<string, unknown>): Promise<string> {
  const created = await callAt<ScheduleView>(api.baseUrl, "POST", schedulesPath, { token: apiKey, body });
  expect(created.status, created.text).toBe(201);
  expect(created.body.sync).toBe("synced");
  return created.body.schedule_id;
}

/** What the scheduler holds under `key`, read from pg-boss's own store. */
async function held(key: string) {
  return (await engine.registered()).find((entry) => entry.key === key);
}

function readSchedule(id: string) {
  return callAt<ScheduleView>(api.baseUrl, "GET", `${schedulesPath}/${id}`, { token: apiKey });
}

/** Drops a registration behind the service's back and waits for a reconciler pass to restore it. */
async function loseAndAwaitRestore(id: string) {
  await engine.unregister(id);
  await expect.poll(async () => (await held(id)) !== undefined, { timeout: 5_000, interval: 50 }).toBe(true);
}

describe("the schedule reconciler", () => {
  it("re-registers an active schedule the scheduler lost, or holds at another recipe or version", async () => {
    const lost = await createSchedule({ cron: "0 6 * * *", message: "lost" });
    const changed = await createSchedule({
      cron: "0 7 * * *",
      timezone: "Europe/Berlin",
      message: "changed",
    });
    const lostGeneration = (await held(lost))!.data.generation;
    await engine.unregister(lost);
    await engine.register(changed, "0 0 1 1 *", "UTC", {
      schedule_id: changed,
      generation: 0,
      registered_at: 0,
    });

    await expect
      .poll(async () => (await held(lost)) ?? null, { timeout: 5_000, interval: 50 })
      .toMatchObject({ cron: "0 6 * * *", timezone: "UTC", data: { generation: lostGeneration } });
    await expect
      .poll(async () => (await held(changed)) ?? null, { timeout: 5_000, interval: 50 })
      .toMatchObject({ cron: "0 7 * * *", timezone: "Europe/Berlin", data: { schedule_id: changed } });
    for (const id of [lost, changed]) {
      await expect
        .poll(async () => (await readSchedule(id)).body)
        .toMatchObject({ sync: "synced", last_error: null });
    }
  });

  it("unregisters what the scheduler holds that no active schedule wants", async () => {
    const orphan = newId();
    await engine.register(orphan, "0 5 * * *", "UTC", {
      schedule_id: orphan,
      generation: 1,
      registered_at: 0,
    });
    const paused = await createSchedule({ cron: "0 8 * * *", message: "paused" });
    const patched = await callAt<ScheduleView>(api.baseUrl, "PATCH", `${schedulesPath}/${paused}`, {
      token: apiKey,
      body: { status: "paused" },
    });
    expect(patched.status, patched.text).toBe(200);
    expect(await held(paused)).toBeUndefined();
    // As if the unregister had been lost: the scheduler holds a schedule its row says is paused.
    await engine.register(paused, "0 8 * * *", "UTC", {
      schedule_id: paused,
      generation: 1,
      registered_at: 0,
    });

    await expect.poll(async () => (await held(orphan)) ?? null, { timeout: 5_000, interval: 50 }).toBeNull();
    await expect.poll(async () => (await held(paused)) ?? null, { timeout: 5_000, interval: 50 }).toBeNull();
    expect((await readSchedule(paused)).body).toMatchObject({ sync: "synced" });
  });

  it("leaves in-line registrations alone, whatever the zone's spelling or the cron's spacing", async () => {
    const recipes = [
      { cron: "0  6 * * *", timezone: "Etc/UTC" },
      { cron: "0 6 * * MON", timezone: "utc" },
      { cron: "*/15 9-17 * * 1-5", timezone: "europe/paris" },
      { cron: "0\t6 * * 7", timezone: "US/Eastern" },
      { cron: " 30 6 1 JAN * ", timezone: "GMT" },
    ];
    const ids: string[] = [];
    for (const [i, recipe] of recipes.entries())
      ids.push(await createSchedule({ ...recipe, message: `r${i}` }));
    const registeredAt = async () => Promise.all(ids.map(async (id) => (await held(id))?.data.registered_at));
    const before = await registeredAt();
    expect(before.every((at) => typeof at === "number")).toBe(true);

    // Two restorations of a lost canary: at least one whole reconciler pass ran between them.
    const canary = await createSchedule({ cron: "0 9 * * *", message: "canary" });
    await loseAndAwaitRestore(canary);
    await loseAndAwaitRestore(canary);

    // A pass that saw these as drifted would have pushed them again, with a new registered_at.
    expect(await registeredAt()).toEqual(before);
    for (const id of ids)
      expect((await readSchedule(id)).body).toMatchObject({ sync: "synced", last_error: null });
  });
});
