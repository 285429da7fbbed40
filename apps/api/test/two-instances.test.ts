import type { OutputOf } from "@fleet/contracts";
import type { createApiKey } from "@fleet/contracts/api-keys/create-api-key";
import type { createSchedule } from "@fleet/contracts/schedules/create-schedule";
import { eq, fleetEvents, schedules, sql } from "@fleet/db";
import { describe, expect, it } from "vitest";
import { fireSchedule } from "../src/services/schedules/sync.ts";
import { installFleet } from "./fleet-fixtures.ts";
import { callAt, databaseKind, seedMember, seedTenant } from "./harness.ts";
import { useSecondInstance } from "./instances.ts";

/**
 * Two API instances on one PostgreSQL (the deployment docs/deploy.md describes): what is changed through
 * one is honoured by the other at once. Proved beside their resources, and not repeated here: a quota
 * shared by both (rate-limits-shared.test.ts, "a quota shared by two instances"); a gate answered through one
 * waking the runner long-polling the other (approvals-decisions.test.ts, "answers across instances"); a message
 * posted through one waking the runner long-polling the other (work-across-instances.test.ts); each cron
 * instant fired once by both instances' schedulers through pg-boss (scheduler-faults.test.ts, a minute
 * long, since pg-boss's cron fires on whole minutes).
 */
describe.runIf(databaseKind === "postgres")("two API instances on one PostgreSQL", () => {
  const instances = useSecondInstance();

  it("refuses a key revoked through one instance on the other's very next request, every time", async () => {
    const { first, second } = instances();
    const tenant = await seedTenant();
    for (let round = 0; round < 20; round++) {
      const minted = await callAt<OutputOf<typeof createApiKey>>(first.baseUrl, "POST", "/v1/api-keys", {
        token: tenant.apiKey,
        body: { key_name: `two-instances-${round}` },
      });
      expect(minted.status, minted.text).toBe(201);
      // Served twice on the second instance: the second answer comes from its principal cache.
      for (let read = 0; read < 2; read++) {
        const me = await callAt(second.baseUrl, "GET", "/v1/users/me", { token: minted.body.key });
        expect(me.status, me.text).toBe(200);
      }
      const revoked = await callAt(first.baseUrl, "PATCH", `/v1/api-keys/${minted.body.id}`, {
        token: tenant.apiKey,
        body: { active: false },
      });
      expect(revoked.status, revoked.text).toBe(200);
      // No retry, no wait: the revoke was answered only once the second instance had acked the change
      // (src/auth/peer-acks.ts); without that, about one round in twenty was still served here.
      const refused = await callAt(second.baseUrl, "GET", "/v1/users/me", { token: minted.body.key });
      expect(refused.status, refused.text).toBe(401);
      expect(refused.body).toMatchObject({ error_code: "UZ-APIKEY-004" });
    }
  });

  it("refuses a member removed through one instance on the other's very next request, key and session", async () => {
    const { first, second } = instances();
    const tenant = await seedTenant();
    for (let round = 0; round < 5; round++) {
      const member = await seedMember(tenant, ["fleet:read", "apikey:write"]);
      const minted = await callAt<OutputOf<typeof createApiKey>>(first.baseUrl, "POST", "/v1/api-keys", {
        token: member.token,
        body: { key_name: `member-${round}` },
      });
      expect(minted.status, minted.text).toBe(201);
      for (const token of [member.token, minted.body.key, member.token, minted.body.key]) {
        const me = await callAt(second.baseUrl, "GET", "/v1/users/me", { token });
        expect(me.status, me.text).toBe(200);
      }
      const removed = await callAt(first.baseUrl, "DELETE", `/v1/tenants/me/members/${member.userId}`, {
        token: tenant.apiKey,
      });
      expect(removed.status, removed.text).toBe(204);
      const session = await callAt(second.baseUrl, "GET", "/v1/users/me", { token: member.token });
      expect(session.status, session.text).toBe(401);
      const key = await callAt(second.baseUrl, "GET", "/v1/users/me", { token: minted.body.key });
      expect(key.status, key.text).toBe(401);
    }
  });

  it("turns one cron instant into one event when both instances' schedulers hand it over at once", async () => {
    const { first, second } = instances();
    const tenant = await seedTenant();
    const fleetId = await installFleet(tenant);
    // Once a year: no real instant of it falls within the test, so every fire below is the test's own.
    const created = await callAt<OutputOf<typeof createSchedule>>(
      first.baseUrl,
      "POST",
      `/v1/workspaces/${tenant.workspaceId}/fleets/${fleetId}/schedules`,
      { token: tenant.apiKey, body: { cron: "0 0 1 1 *", message: "new year" } },
    );
    expect(created.status, created.text).toBe(201);
    const [row] = await first.database.db
      .select()
      .from(schedules)
      .where(eq(schedules.id, created.body.schedule_id));
    // Its latest instant, as pg-boss hands it to a worker: the same job data and due time on every
    // delivery, whichever instance's cron pass or send-ahead produced it and whichever worker takes it.
    const instant = Date.UTC(new Date().getUTCFullYear(), 0, 1);
    const data = { schedule_id: row!.id, generation: row!.generation, registered_at: 0 };
    await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        fireSchedule((i % 2 === 0 ? first : second).app.services, data, instant),
      ),
    );
    const events = await first.database.db
      .select({ id: fleetEvents.id })
      .from(fleetEvents)
      .where(sql`${fleetEvents.actor} = ${`cron:${row!.id}`}`);
    expect(events).toHaveLength(1);
    const [after] = await first.database.db.select().from(schedules).where(eq(schedules.id, row!.id));
    expect(after?.lastFiredAt).toBe(instant);
  });
});
