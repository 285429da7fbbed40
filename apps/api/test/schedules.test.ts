import type { OutputOf, scheduleView } from "@fleet/contracts";
import type { createFleet } from "@fleet/contracts/fleets/create-fleet";
import type { listSchedules } from "@fleet/contracts/schedules/list-schedules";
import { fleetEvents, schedules, sql } from "@fleet/db";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { FIRE_QUEUE } from "../src/runtime/schedule-engine.ts";
import { fireSchedule } from "../src/services/schedules/sync.ts";
import { installFleet, seedLibraryEntry } from "./fleet-fixtures.ts";
import { call, seedTenant, type Tenant, testApi } from "./harness.ts";

type ScheduleView = z.output<typeof scheduleView>;

function base(tenant: Tenant, fleetId: string) {
  return `/v1/workspaces/${tenant.workspaceId}/fleets/${fleetId}/schedules`;
}

describe("schedules (person routes)", () => {
  it("creates, reads, pauses, resumes and deletes a schedule, registered with the scheduler", async () => {
    const tenant = await seedTenant();
    const fleetId = await installFleet(tenant);
    const created = await call<ScheduleView>("POST", base(tenant, fleetId), {
      token: tenant.apiKey,
      body: { cron: "30 9 * * 1-5", timezone: "Europe/Paris", message: "Standup summary" },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({
      cron: "30 9 * * 1-5",
      timezone: "Europe/Paris",
      source: "api",
      once: false,
      status: "active",
      sync: "synced",
      last_error: null,
    });
    expect(created.body).not.toHaveProperty("override");
    expect(created.body.next_fire_at).toBeGreaterThan(Date.now());
    // 09:30 in Paris is 07:30 or 08:30 UTC, on a weekday.
    const next = new Date(created.body.next_fire_at!);
    expect([7, 8]).toContain(next.getUTCHours());
    expect(next.getUTCMinutes()).toBe(30);

    const path = `${base(tenant, fleetId)}/${created.body.schedule_id}`;
    const read = await call<ScheduleView>("GET", path, { token: tenant.apiKey });
    expect(read.headers.get("etag")).toBe(created.body.etag);

    const paused = await call<ScheduleView>("PATCH", path, {
      token: tenant.apiKey,
      headers: { "if-match": created.body.etag },
      body: { status: "paused" },
    });
    expect(paused.status).toBe(200);
    expect(paused.body).toMatchObject({ status: "paused", sync: "synced", next_fire_at: null });
    const stale = await call("PATCH", path, {
      token: tenant.apiKey,
      headers: { "if-match": created.body.etag },
      body: { status: "active" },
    });
    expect(stale.status).toBe(412);
    expect(stale.body).toMatchObject({ error_code: "UZ-SCHED-012", etag: paused.body.etag });

    const resumed = await call<ScheduleView>("PATCH", path, {
      token: tenant.apiKey,
      body: { status: "active" },
    });
    expect(resumed.body).toMatchObject({ status: "active", sync: "synced" });
    const list = await call<OutputOf<typeof listSchedules>>("GET", base(tenant, fleetId), {
      token: tenant.apiKey,
    });
    expect(list.body.items.map((s) => s.schedule_id)).toEqual([created.body.schedule_id]);

    expect((await call("DELETE", path, { token: tenant.apiKey })).status).toBe(204);
    const gone = await call("GET", path, { token: tenant.apiKey });
    expect(gone.status).toBe(404);
    expect(gone.body.error_code).toBe("UZ-SCHED-002");
  });

  it("refuses a bad cron or timezone with UZ-SCHED-001 naming the field, storing nothing", async () => {
    const tenant = await seedTenant();
    const fleetId = await installFleet(tenant);
    const cases: [Record<string, unknown>, string][] = [
      [{ cron: "* * * *", message: "m" }, "cron"],
      [{ cron: "61 * * * *", message: "m" }, "cron"],
      [{ cron: "@daily", message: "m" }, "cron"],
      [{ cron: "* * * * *", message: "m", timezone: "Mars/Olympus" }, "timezone"],
    ];
    for (const [body, field] of cases) {
      const refused = await call("POST", base(tenant, fleetId), { token: tenant.apiKey, body });
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.error_code).toBe("UZ-SCHED-001");
      expect(String(refused.body.detail).toLowerCase()).toContain(field);
    }
    // The field at fault and what it takes, in the words the console's form says (contracts' cronSentence).
    const minute = await call("POST", base(tenant, fleetId), {
      token: tenant.apiKey,
      body: { cron: "61 * * * *", message: "m" },
    });
    expect(minute.body.detail).toBe('Cron minute must be 0–59, not "61".');
    const unknown = await call("POST", base(tenant, fleetId), {
      token: tenant.apiKey,
      body: { cron: "* * * * *", message: "m", source: "fleet" },
    });
    expect(unknown.body.error_code).toBe("UZ-REQ-001");
    const list = await call<OutputOf<typeof listSchedules>>("GET", base(tenant, fleetId), {
      token: tenant.apiKey,
    });
    expect(list.body.items).toEqual([]);
  });

  it("writes a person's change of a trigger schedule to its override, never to the recipe", async () => {
    const tenant = await seedTenant();
    const entry = await seedLibraryEntry({
      triggers: [{ cron: "0 9 * * *", timezone: "UTC", message: "Daily digest" }],
    });
    const installed = await call<OutputOf<typeof createFleet>>(
      "POST",
      `/v1/workspaces/${tenant.workspaceId}/fleets`,
      { token: tenant.apiKey, body: { platform_library_id: entry } },
    );
    const path = `${base(tenant, installed.body.fleet_id)}/${installed.body.schedule_ids[0]}`;
    const trigger = await call<ScheduleView>("GET", path, { token: tenant.apiKey });
    expect(trigger.body).toMatchObject({ source: "trigger", cron: "0 9 * * *", sync: "synced" });
    expect(trigger.body).not.toHaveProperty("override");

    const changed = await call<ScheduleView>("PATCH", path, {
      token: tenant.apiKey,
      body: { cron: "0 7 * * *", status: "paused" },
    });
    expect(changed.body).toMatchObject({
      cron: "0 9 * * *",
      message: "Daily digest",
      status: "paused",
      override: { cron: "0 7 * * *", message: null, status: "paused", timezone: null },
    });
    expect(changed.body.etag).not.toBe(trigger.body.etag);
    const resumed = await call<ScheduleView>("PATCH", path, { token: tenant.apiKey, body: { status: null } });
    expect(resumed.body.status).toBe("active");
    expect(new Date(resumed.body.next_fire_at!).getUTCHours()).toBe(7);
    const cleared = await call<ScheduleView>("PATCH", path, { token: tenant.apiKey, body: { cron: null } });
    expect(cleared.body).not.toHaveProperty("override");
    expect(new Date(cleared.body.next_fire_at!).getUTCHours()).toBe(9);
  });

  it("holds at most 32 schedules per fleet under concurrent creates", async () => {
    const tenant = await seedTenant();
    const fleetId = await installFleet(tenant);
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        call("POST", base(tenant, fleetId), {
          token: tenant.apiKey,
          body: { cron: `${i % 60} * * * *`, message: `m${i}` },
        }),
      ),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(32);
    for (const refused of answers.filter((a) => a.status !== 201)) {
      expect(refused.status).toBe(409);
      expect(refused.body).toMatchObject({ error_code: "UZ-SCHED-003", current_state: "limit_reached" });
    }
  });

  it("refuses a change while another is being pushed (409 syncing)", async () => {
    const tenant = await seedTenant();
    const fleetId = await installFleet(tenant);
    const created = await call<ScheduleView>("POST", base(tenant, fleetId), {
      token: tenant.apiKey,
      body: { cron: "0 * * * *", message: "hourly" },
    });
    const path = `${base(tenant, fleetId)}/${created.body.schedule_id}`;
    const answers = await Promise.all(
      ["1 * * * *", "2 * * * *", "3 * * * *"].map((cron) =>
        call("PATCH", path, { token: tenant.apiKey, body: { cron } }),
      ),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses[0]).toBe(200);
    for (const answer of answers.filter((a) => a.status !== 200)) {
      expect(answer.body).toMatchObject({ error_code: "UZ-SCHED-006", current_state: "syncing" });
    }
  });
});

describe("schedule fires", () => {
  it("sends the next instant ahead to pg-boss, and drops a fire of an earlier version", async () => {
    const tenant = await seedTenant();
    const fleetId = await installFleet(tenant);
    const created = await call<ScheduleView>("POST", base(tenant, fleetId), {
      token: tenant.apiKey,
      body: { cron: "0 0 1 1 *", message: "new year" },
    });
    expect(created.status, created.text).toBe(201);
    const id = created.body.schedule_id;
    const api = await testApi();
    // Held by pg-boss until the instant the View says comes next.
    const ahead = await api.database.query<{ at: string }>(
      "select (extract(epoch from start_after) * 1000)::bigint::text as at from pgboss.job where name = $1 and data->>'schedule_id' = $2",
      [FIRE_QUEUE, id],
    );
    expect(ahead.map((row) => Number(row.at))).toContain(created.body.next_fire_at);

    const events = async () =>
      (
        await api.database.db
          .select({ id: fleetEvents.id })
          .from(fleetEvents)
          .where(sql`${fleetEvents.actor} = ${`cron:${id}`}`)
      ).length;
    // No instant of a yearly schedule within a minute of now: nothing to deduplicate against.
    await fireSchedule(api.app.services, { schedule_id: id, generation: 0, registered_at: 0 }, Date.now());
    expect(await events()).toBe(0);
    await fireSchedule(api.app.services, { schedule_id: id, generation: 1, registered_at: 0 }, Date.now());
    expect(await events()).toBe(1);
    // A fire sent ahead is taken when it comes due, with no notification to wake the worker: within
    // its half-second poll, not the 30 s NOTIFY backstop.
    const due = Date.now() + 1_000;
    await api.app.services.scheduler!.sendAhead({ schedule_id: id, generation: 1, registered_at: 0 }, due);
    await expect.poll(events, { timeout: 5_000, interval: 100 }).toBe(2);
  });

  it("a fire becomes a cron event; a once schedule retires after its first fire", {
    timeout: 150_000,
  }, async () => {
    const tenant = await seedTenant();
    const fleetId = await installFleet(tenant);
    const every = await call<ScheduleView>("POST", base(tenant, fleetId), {
      token: tenant.apiKey,
      body: { cron: "* * * * *", message: "every minute" },
    });
    const once = await call<ScheduleView>("POST", base(tenant, fleetId), {
      token: tenant.apiKey,
      body: { cron: "* * * * *", message: "just once", once: true },
    });
    expect(once.body.sync).toBe("synced");
    const api = await testApi();
    const cronEvents = () =>
      api.database.db
        .select({ actor: fleetEvents.actor, requestJson: fleetEvents.requestJson })
        .from(fleetEvents)
        .where(sql`${fleetEvents.fleetId} = ${fleetId} and ${fleetEvents.eventType} = 'cron'`);
    const deadline = Date.now() + 130_000;
    while (Date.now() < deadline) {
      const events = await cronEvents();
      const seen = (id: string) => events.some((e) => e.actor === `cron:${id}`);
      if (seen(once.body.schedule_id) && seen(every.body.schedule_id)) break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    // A fire delivered again (pg-boss retries a failed batch at once, and a job whose worker died 15
    // minutes on; both carry the job's creation time) is dropped, even twice at once: one event per
    // instant, however late the second delivery comes.
    const [firstFire] = await api.database.db
      .select({ createdAt: fleetEvents.createdAt })
      .from(fleetEvents)
      .where(sql`${fleetEvents.actor} = ${`cron:${every.body.schedule_id}`}`)
      .orderBy(fleetEvents.createdAt)
      .limit(1);
    const fired = (await cronEvents()).filter((e) => e.actor === `cron:${every.body.schedule_id}`).length;
    const redelivered = { schedule_id: every.body.schedule_id, generation: 1, registered_at: 0 };
    await Promise.all([
      fireSchedule(api.app.services, redelivered, firstFire!.createdAt),
      fireSchedule(api.app.services, redelivered, firstFire!.createdAt),
    ]);
    // The same delivery again a quarter of an hour on, as pg-boss redelivers an expired job.
    const clock = api.app.services.now;
    api.app.services.now = () => clock() + 15 * 60_000;
    try {
      await fireSchedule(api.app.services, redelivered, firstFire!.createdAt);
    } finally {
      api.app.services.now = clock;
    }
    const events = await cronEvents();
    expect(events.filter((e) => e.actor === `cron:${every.body.schedule_id}`)).toHaveLength(fired);
    expect(events.filter((e) => e.actor === `cron:${once.body.schedule_id}`)).toHaveLength(1);
    expect(events.some((e) => e.actor === `cron:${every.body.schedule_id}`)).toBe(true);
    expect(JSON.parse(events.find((e) => e.actor === `cron:${once.body.schedule_id}`)!.requestJson)).toEqual({
      message: "just once",
      schedule_id: once.body.schedule_id,
    });
    // Retired: gone from the store (and so from the scheduler).
    await expect
      .poll(
        async () =>
          (
            await api.database.db
              .select()
              .from(schedules)
              .where(sql`${schedules.id} = ${once.body.schedule_id}`)
          ).length,
        { timeout: 5_000 },
      )
      .toBe(0);
  });
});
