import type { OutputOf } from "@fleet/contracts";
import type { listFleetEvents } from "@fleet/contracts/fleet-events/list-fleet-events";
import type { retryFleetEvent } from "@fleet/contracts/fleet-events/retry-fleet-event";
import type { messageFleet as messageOperation } from "@fleet/contracts/fleets/message-fleet";
import type { getMe } from "@fleet/contracts/users/get-me";
import { eq, fleetEvents } from "@fleet/db";
import { describe, expect, it } from "vitest";
import { newId } from "../src/runtime/ids.ts";
import { finishEvent, installFleet, messageFleet } from "./fleet-fixtures.ts";
import { call, seedTenant, sessionFor, type Tenant, testApi } from "./harness.ts";

type Retried = OutputOf<typeof retryFleetEvent>;

type EventPage = OutputOf<typeof listFleetEvents>;

async function pageThrough(tenant: Tenant, path: string, query = ""): Promise<string[]> {
  const seen: string[] = [];
  let cursor: string | null = null;
  do {
    const url: string = `${path}?limit=2${query}${cursor ? `&starting_after=${cursor}` : ""}`;
    const page = await call<EventPage>("GET", url, { token: tenant.apiKey });
    expect(page.status, page.text).toBe(200);
    seen.push(...page.body.items.map((item) => item.event_id));
    cursor = page.body.next_cursor;
  } while (cursor !== null);
  return seen;
}

describe("messages and fleet events", () => {
  it("stores a message as a received chat event, read in full alone and without bodies in lists", async () => {
    const tenant = await seedTenant();
    const fleetId = await installFleet(tenant);
    const base = `/v1/workspaces/${tenant.workspaceId}/fleets/${fleetId}`;
    const sent = await call<OutputOf<typeof messageOperation>>("POST", `${base}/messages`, {
      token: tenant.apiKey,
      body: { message: "Summarise the open incidents" },
    });
    expect(sent.status).toBe(202);
    expect(sent.body.status).toBe("accepted");

    const me = await call<OutputOf<typeof getMe>>("GET", "/v1/users/me", { token: tenant.apiKey });
    const event = await call("GET", `${base}/events/${sent.body.event_id}`, { token: tenant.apiKey });
    expect(event.status).toBe(200);
    expect(event.body).toMatchObject({
      event_id: sent.body.event_id,
      fleet_id: fleetId,
      workspace_id: tenant.workspaceId,
      event_type: "chat",
      status: "received",
      request_json: JSON.stringify({ message: "Summarise the open incidents" }),
    });
    expect(event.body.actor).toMatch(/^api_key:/);
    expect(event.body).not.toHaveProperty("response_text");
    expect(event.body).not.toHaveProperty("tokens");
    expect(me.status).toBe(200);

    const list = await call<EventPage>("GET", `${base}/events`, { token: tenant.apiKey });
    expect(list.body.items).toHaveLength(1);
    expect(list.body.items[0]).toMatchObject({ event_id: sent.body.event_id, status: "received" });
    expect(list.body.items[0]).not.toHaveProperty("request_json");
    expect(list.text).not.toContain("Summarise");
    const workspace = await call<EventPage>("GET", `/v1/workspaces/${tenant.workspaceId}/events`, {
      token: tenant.apiKey,
    });
    expect(workspace.body.items.map((item) => item.event_id)).toEqual([sent.body.event_id]);
  });

  it("answers one 404 for an absent event and for another fleet's or workspace's event", async () => {
    const tenant = await seedTenant();
    const other = await seedTenant();
    const mine = await installFleet(tenant);
    const sibling = await installFleet(tenant);
    const theirs = await installFleet(other);
    const siblingEvent = await messageFleet(tenant, sibling);
    const theirEvent = await messageFleet(other, theirs);
    const base = `/v1/workspaces/${tenant.workspaceId}/fleets/${mine}/events`;
    const answers = await Promise.all(
      [siblingEvent, theirEvent, newId()].map((id) => call("GET", `${base}/${id}`, { token: tenant.apiKey })),
    );
    for (const answer of answers) {
      expect(answer.status).toBe(404);
      expect(answer.body.error_code).toBe("UZ-EVENT-001");
    }
    const crossed = await call(
      "GET",
      `/v1/workspaces/${other.workspaceId}/fleets/${theirs}/events/${theirEvent}`,
      { token: tenant.apiKey },
    );
    expect(crossed.status).toBe(404);
  });

  it("pages newest first by cursor, filters by actor and since, and bounds limit to 200", async () => {
    const tenant = await seedTenant();
    const fleetId = await installFleet(tenant);
    const other = await installFleet(tenant);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(await messageFleet(tenant, fleetId, `m${i}`));
    const otherId = await messageFleet(tenant, other);
    const base = `/v1/workspaces/${tenant.workspaceId}/fleets/${fleetId}/events`;
    expect(await pageThrough(tenant, base)).toEqual([...ids].reverse());
    expect(await pageThrough(tenant, `/v1/workspaces/${tenant.workspaceId}/events`)).toEqual([
      otherId,
      ...[...ids].reverse(),
    ]);

    // A cron event from a schedule, to filter by actor.
    const api = await testApi();
    const cronId = newId();
    const cronAt = Date.now() + 60_000;
    await api.database.db.insert(fleetEvents).values({
      id: cronId,
      workspaceId: tenant.workspaceId,
      fleetId,
      actor: "cron:0190a000-0000-7000-8000-000000000001",
      eventType: "cron",
      requestJson: JSON.stringify({ message: "tick" }),
      status: "processed",
      responseText: "done",
      tokens: 42,
      createdAt: cronAt,
      updatedAt: cronAt,
    });
    expect(await pageThrough(tenant, base, "&actor=cron:*")).toEqual([cronId]);
    expect(await pageThrough(tenant, base, "&actor=api_key:*")).toEqual([...ids].reverse());
    expect(await pageThrough(tenant, base, "&actor=cron:0190a000-0000-7000-8000-000000000001")).toEqual([
      cronId,
    ]);
    expect(await pageThrough(tenant, base, `&since=${cronAt}`)).toEqual([cronId]);
    expect((await pageThrough(tenant, base, "&since=1h")).length).toBe(6);
    expect(await pageThrough(tenant, base, `&since=${new Date(cronAt).toISOString()}`)).toEqual([cronId]);
    expect(await pageThrough(tenant, base, "&since=2999-01-01T00:00:00Z")).toEqual([]);
    const item = (await call<EventPage>("GET", `${base}?actor=cron:*`, { token: tenant.apiKey })).body
      .items[0];
    expect(item).toMatchObject({ event_type: "cron", status: "processed", tokens: 42 });
    expect(item).not.toHaveProperty("response_text");

    for (const bad of ["limit=201", "limit=0", "since=yesterday", "actor=a*b*", "page=2"]) {
      const refused = await call("GET", `${base}?${bad}`, { token: tenant.apiKey });
      expect(refused.status, bad).toBe(400);
      expect(refused.body.error_code).toBe("UZ-REQ-001");
    }
    expect((await call<EventPage>("GET", `${base}?limit=200`, { token: tenant.apiKey })).status).toBe(200);

    const filtered = await call<EventPage>("GET", `${base}?limit=1&actor=api_key:*`, {
      token: tenant.apiKey,
    });
    const replayed = await call("GET", `${base}?limit=1&starting_after=${filtered.body.next_cursor}`, {
      token: tenant.apiKey,
    });
    expect(replayed.status).toBe(400);
    expect(replayed.body.error_code).toBe("UZ-REQ-001");
  });

  it("filters by status and type (comma-separated sets) and by a time window, binding cursors to them", async () => {
    const tenant = await seedTenant();
    const fleetId = await installFleet(tenant);
    const chat = await messageFleet(tenant, fleetId, "hi");
    const api = await testApi();
    const now = Date.now();
    const rows = [
      { eventType: "cron", status: "processed", at: now - 3 * 3_600_000 },
      { eventType: "webhook", status: "fleet_error", at: now - 2 * 3_600_000 },
      { eventType: "cron", status: "gate_blocked", at: now - 3_600_000 },
    ] as const;
    const [oldCron, webhook, blockedCron] = rows.map(() => newId());
    const ids = [oldCron, webhook, blockedCron] as string[];
    await api.database.db.insert(fleetEvents).values(
      rows.map((row, index) => ({
        id: ids[index] as string,
        workspaceId: tenant.workspaceId,
        fleetId,
        actor: "cron:0190a000-0000-7000-8000-000000000001",
        eventType: row.eventType,
        requestJson: "{}",
        status: row.status,
        createdAt: row.at,
        updatedAt: row.at,
      })),
    );
    const base = `/v1/workspaces/${tenant.workspaceId}/fleets/${fleetId}/events`;
    const workspaceBase = `/v1/workspaces/${tenant.workspaceId}/events`;
    expect(await pageThrough(tenant, base, "&status=received")).toEqual([chat]);
    expect(await pageThrough(tenant, base, "&status=processed,fleet_error")).toEqual([webhook, oldCron]);
    expect(await pageThrough(tenant, base, "&event_type=cron")).toEqual([blockedCron, oldCron]);
    expect(await pageThrough(tenant, base, "&event_type=cron,chat&status=gate_blocked,received")).toEqual([
      chat,
      blockedCron,
    ]);
    expect(await pageThrough(tenant, workspaceBase, "&event_type=webhook")).toEqual([webhook]);
    // A window: since and until inclusive, in any of since's forms.
    expect(await pageThrough(tenant, base, `&since=${rows[1].at}&until=${rows[2].at}`)).toEqual([
      blockedCron,
      webhook,
    ]);
    expect(await pageThrough(tenant, base, "&until=90m")).toEqual([webhook, oldCron]);
    expect(await pageThrough(tenant, base, `&until=${new Date(rows[0].at).toISOString()}`)).toEqual([
      oldCron,
    ]);

    for (const bad of [
      "status=done",
      "status=received,",
      "event_type=chat,email",
      "until=tomorrow",
      "since=1h&until=2h",
      `until=${"1".repeat(70)}`,
    ]) {
      const refused = await call("GET", `${base}?${bad}`, { token: tenant.apiKey });
      expect(refused.status, bad).toBe(400);
      expect(refused.body.error_code).toBe("UZ-REQ-001");
    }
    const refused = await call("GET", `${base}?status=done`, { token: tenant.apiKey });
    expect(refused.body.detail).toContain("done");

    // A cursor is bound to the sets and the window: replayed under other filters it is refused.
    const first = await call<EventPage>("GET", `${base}?limit=1&event_type=cron`, { token: tenant.apiKey });
    expect(first.body.next_cursor).not.toBeNull();
    const elsewhere = await call(
      "GET",
      `${base}?limit=1&event_type=cron,chat&starting_after=${first.body.next_cursor}`,
      {
        token: tenant.apiKey,
      },
    );
    expect(elsewhere.status).toBe(400);
    const same = await call<EventPage>(
      "GET",
      `${base}?limit=1&event_type=cron&starting_after=${first.body.next_cursor}`,
      {
        token: tenant.apiKey,
      },
    );
    expect(same.body.items.map((item) => item.event_id)).toEqual([oldCron]);
  });

  it("refuses an empty or oversized message and a message to an unknown fleet, storing nothing", async () => {
    const tenant = await seedTenant();
    const fleetId = await installFleet(tenant);
    const base = `/v1/workspaces/${tenant.workspaceId}/fleets/${fleetId}`;
    const empty = await call("POST", `${base}/messages`, { token: tenant.apiKey, body: { message: "" } });
    expect(empty.status).toBe(400);
    expect(empty.body.detail).toContain("message");
    const big = await call("POST", `${base}/messages`, {
      token: tenant.apiKey,
      body: { message: "x".repeat(40 * 1024) },
    });
    expect(big.status).toBe(413);
    const unknown = await call("POST", `/v1/workspaces/${tenant.workspaceId}/fleets/${newId()}/messages`, {
      token: tenant.apiKey,
      body: { message: "hi" },
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error_code).toBe("UZ-FLEET-001");
    const list = await call<EventPage>("GET", `${base}/events`, { token: tenant.apiKey });
    expect(list.body.items).toEqual([]);
  });
});

describe("running an event again", () => {
  it("stores a new received event with the same request, linked by retry_of, read and listed", async () => {
    const tenant = await seedTenant();
    const fleetId = await installFleet(tenant);
    const base = `/v1/workspaces/${tenant.workspaceId}/fleets/${fleetId}`;
    const original = await messageFleet(tenant, fleetId, "Summarise the open incidents");
    // Runners lease any tenant's waiting work, and this file shares its database: finish it directly.
    await finishEvent(original);

    const session = await sessionFor(tenant);
    const retried = await call<Retried>("POST", `${base}/events/${original}/retry`, { token: session });
    expect(retried.status, retried.text).toBe(202);
    expect(retried.body).toMatchObject({ status: "accepted", retry_of: original });
    expect(retried.body.event_id).not.toBe(original);

    const again = await call("GET", `${base}/events/${retried.body.event_id}`, { token: tenant.apiKey });
    expect(again.body).toMatchObject({
      event_id: retried.body.event_id,
      event_type: "chat",
      status: "received",
      retry_of: original,
      request_json: JSON.stringify({ message: "Summarise the open incidents" }),
    });
    expect(again.body.actor).toMatch(/^user:/);
    expect(again.body).not.toHaveProperty("response_text");
    const first = await call("GET", `${base}/events/${original}`, { token: tenant.apiKey });
    expect(first.body).toMatchObject({ status: "processed", response_text: "done" });
    expect(first.body).not.toHaveProperty("retry_of");

    const list = await call<EventPage>("GET", `${base}/events`, { token: tenant.apiKey });
    expect(list.body.items.map((item) => [item.event_id, item.retry_of])).toEqual([
      [retried.body.event_id, original],
      [original, undefined],
    ]);

    // An event still waiting (the copy) cannot be run again.
    const running = await call("POST", `${base}/events/${retried.body.event_id}/retry`, {
      token: tenant.apiKey,
    });
    expect(running.status).toBe(409);
    expect(running.body).toMatchObject({ error_code: "UZ-EVENT-002", current_state: "received" });
  });

  it("runs a failed event again, and refuses an unfinished or gate-blocked one, storing nothing", async () => {
    const tenant = await seedTenant();
    const fleetId = await installFleet(tenant);
    const base = `/v1/workspaces/${tenant.workspaceId}/fleets/${fleetId}`;
    const failed = await messageFleet(tenant, fleetId, "a");
    await finishEvent(failed, "fleet_error");
    const ok = await call<Retried>("POST", `${base}/events/${failed}/retry`, { token: tenant.apiKey });
    expect(ok.status, ok.text).toBe(202);

    const waiting = await messageFleet(tenant, fleetId, "b");
    const blocked = await messageFleet(tenant, fleetId, "c");
    const api = await testApi();
    await api.database.db
      .update(fleetEvents)
      .set({ status: "gate_blocked" })
      .where(eq(fleetEvents.id, blocked));
    for (const [id, state] of [
      [waiting, "received"],
      [blocked, "gate_blocked"],
    ] as const) {
      const refused = await call("POST", `${base}/events/${id}/retry`, { token: tenant.apiKey });
      expect(refused.status).toBe(409);
      expect(refused.headers.get("content-type")).toContain("application/problem+json");
      expect(refused.body).toMatchObject({ error_code: "UZ-EVENT-002", current_state: state });
    }
    const list = await call<EventPage>("GET", `${base}/events`, { token: tenant.apiKey });
    expect(list.body.items).toHaveLength(4);
  });

  it("follows the fleet's state as a message does, and answers 404 for an event it cannot see", async () => {
    const tenant = await seedTenant();
    const other = await seedTenant();
    const fleetId = await installFleet(tenant);
    const sibling = await installFleet(tenant);
    const base = `/v1/workspaces/${tenant.workspaceId}/fleets/${fleetId}`;
    const done = await messageFleet(tenant, fleetId);
    await finishEvent(done);
    for (const status of ["paused", "stopped"]) {
      const moved = await call("PATCH", base, { token: tenant.apiKey, body: { status } });
      expect(moved.status, moved.text).toBe(200);
      const refused = await call("POST", `${base}/events/${done}/retry`, { token: tenant.apiKey });
      expect(refused.status).toBe(409);
      expect(refused.body).toMatchObject({ error_code: "UZ-FLEET-003", current_state: status });
    }
    expect((await call("PATCH", base, { token: tenant.apiKey, body: { status: "active" } })).status).toBe(
      200,
    );

    const siblingEvent = await messageFleet(tenant, sibling);
    await finishEvent(siblingEvent);
    const theirFleet = await installFleet(other);
    const theirEvent = await messageFleet(other, theirFleet);
    await finishEvent(theirEvent);
    for (const id of [siblingEvent, theirEvent, newId()]) {
      const missing = await call("POST", `${base}/events/${id}/retry`, { token: tenant.apiKey });
      expect(missing.status).toBe(404);
      expect(missing.body.error_code).toBe("UZ-EVENT-001");
    }
    const malformed = await call("POST", `${base}/events/not-an-id/retry`, { token: tenant.apiKey });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error_code).toBe("UZ-REQ-001");
    const withBody = await call("POST", `${base}/events/${done}/retry`, {
      token: tenant.apiKey,
      body: { message: "other" },
    });
    expect(withBody.status).toBe(400);
    const list = await call<EventPage>("GET", `${base}/events`, { token: tenant.apiKey });
    expect(list.body.items.map((item) => item.event_id)).toEqual([done]);
  });

  it("stores one new event per call when ten retries of one event race", async () => {
    const tenant = await seedTenant();
    const fleetId = await installFleet(tenant);
    const base = `/v1/workspaces/${tenant.workspaceId}/fleets/${fleetId}`;
    const done = await messageFleet(tenant, fleetId);
    await finishEvent(done);
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        call<Retried>("POST", `${base}/events/${done}/retry`, { token: tenant.apiKey }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(202));
    const ids = new Set(answers.map((answer) => answer.body.event_id));
    expect(ids.size).toBe(10);
    const list = await call<EventPage>("GET", `${base}/events?limit=50`, { token: tenant.apiKey });
    const copies = list.body.items.filter((item) => item.retry_of === done);
    expect(copies).toHaveLength(10);
    expect(new Set(copies.map((item) => item.event_id))).toEqual(ids);
    expect(copies.every((item) => item.status === "received")).toBe(true);
  });
});
