import { describe, expect, it } from "vitest";
import { leasedFleet, openGate } from "./approval-fixtures.ts";
import { installFleet, messageFleet } from "./fleet-fixtures.ts";
import { requestGrant } from "./grant-fixtures.ts";
import { call, seedMember, seedTenant, type Tenant, testApi, useIsolatedApi } from "./harness.ts";
import { report } from "./runner-fixtures.ts";
import { type Frame, type OpenedStream, openStream } from "./stream-fixtures.ts";

const fleetStream = (owner: Tenant, fleetId: string, query = "") =>
  `/v1/workspaces/${owner.workspaceId}/fleets/${fleetId}/events/stream${query}`;
const workspaceStream = (owner: Tenant, query = "") =>
  `/v1/workspaces/${owner.workspaceId}/events/stream${query}`;

async function open(path: string, token: string, headers: Record<string, string> = {}) {
  const stream = await openStream((await testApi()).baseUrl, path, { token, headers });
  expect(stream.status, JSON.stringify(stream.problem)).toBe(200);
  return stream;
}

/** Publishes chunks through the activity route of a lease. */
async function chunks(leased: Awaited<ReturnType<typeof leasedFleet>>, texts: string[]) {
  const published = await call("POST", `/v1/runners/me/leases/${leased.lease.lease_id}/activity`, {
    token: leased.runner.token,
    body: { frames: texts.map((text) => ({ fleet_response_chunk: { text } })) },
  });
  expect(published.status, published.text).toBe(202);
}

const framesOf = (stream: OpenedStream, event: string) => stream.frames.filter((f) => f.event === event);
const chunkTexts = (stream: OpenedStream) => framesOf(stream, "chunk").map((f) => f.data.payload.text);

describe("live-tail streams", () => {
  it("sends hello first, then every publisher's frame, named by kind, with increasing ids", async () => {
    const owner = await seedTenant();
    const leased = await leasedFleet(owner);
    const stream = await open(fleetStream(owner, leased.fleetId), owner.apiKey);
    try {
      expect(stream.headers["content-type"]).toMatch(/^text\/event-stream/);
      // A compressing proxy (the console's) buffers what it may transform: frames would stall there.
      expect(stream.headers["cache-control"]).toContain("no-transform");
      const hello = await stream.next(() => true);
      expect(hello.event).toBe("hello");
      expect(hello.id).toBeNull();
      expect(hello.data).toMatchObject({ replay_window: { frames: 1000, seconds: 300 } });
      expect(hello.data.subscription_id).toMatch(/^[0-9a-f-]{36}$/);
      expect(stream.retries).toContain(2000);

      const eventId = await messageFleet(owner, leased.fleetId, "what broke the deploy?");
      // Publication is asynchronous: the fixture's own message may still arrive, after the stream opened.
      const received = await stream.next((f) => f.event === "event_received" && f.data.event_id === eventId);
      expect(received.data).toMatchObject({
        kind: "event_received",
        workspace_id: owner.workspaceId,
        fleet_id: leased.fleetId,
        event_id: eventId,
        lease_id: null,
        payload: { event_type: "chat", request_preview: "what broke the deploy?" },
      });
      expect(typeof received.data.payload.actor).toBe("string");

      const activity = await call("POST", `/v1/runners/me/leases/${leased.lease.lease_id}/activity`, {
        token: leased.runner.token,
        body: {
          frames: [
            { tool_call_started: { name: "search", args_redacted: '{"q":"[redacted]"}' } },
            { tool_call_progress: { name: "search", elapsed_ms: 120 } },
            { fleet_response_chunk: { text: "Found 3 incidents" } },
            { tool_call_completed: { name: "search", ms: 240 } },
          ],
        },
      });
      expect(activity.status, activity.text).toBe(202);
      await stream.next((f) => f.event === "tool_call_completed");

      const gate = await openGate(leased);
      expect(gate.status, gate.text).toBe(201);
      const opened = await stream.next((f) => f.event === "gate_opened");
      expect(opened.data.payload).toMatchObject({
        gate_id: gate.body.gate_id,
        gate_kind: "repair",
        tool_name: "github",
        action_name: "merge_pull_request",
        blast_radius: "one repository, main branch",
      });
      expect(opened.data.payload).not.toHaveProperty("evidence");
      const approved = await call(
        "POST",
        `/v1/workspaces/${owner.workspaceId}/approvals/${gate.body.gate_id}/approve`,
        { token: owner.apiKey, body: {} },
      );
      expect(approved.status, approved.text).toBe(200);
      const resolved = await stream.next((f) => f.event === "gate_resolved");
      expect(resolved.data.payload).toMatchObject({ gate_id: gate.body.gate_id, outcome: "approved" });
      expect(typeof resolved.data.payload.resolved_at).toBe("number");

      const reported = await report(leased.runner, leased.lease, { wall_ms: 900, tokens: 1200 });
      expect(reported.status, reported.text).toBe(200);
      const complete = await stream.next((f) => f.event === "event_complete");
      expect(complete.data).toMatchObject({
        event_id: leased.lease.event_id,
        lease_id: leased.lease.lease_id,
        payload: { status: "processed", wall_ms: 900, tokens: 1200 },
      });

      const frames = stream.frames
        .slice(1)
        .filter((f) => f.event !== "event_received" || f.data.event_id === eventId);
      expect(frames.map((f) => f.event)).toEqual([
        "event_received",
        "tool_call_started",
        "tool_call_progress",
        "chunk",
        "tool_call_completed",
        "gate_opened",
        "gate_resolved",
        "event_complete",
      ]);
      const ids = frames.map((f) => Number(f.id));
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
      expect(new Set(ids).size).toBe(ids.length);
      for (const frame of frames) {
        expect(frame.data.frame_id).toBe(frame.id);
        expect(frame.data.kind).toBe(frame.event);
        expect(Number.isInteger(frame.data.at)).toBe(true);
      }
    } finally {
      stream.close();
    }
  });

  it("publishes a cron event entering and an integration grant's gate opening", async () => {
    const owner = await seedTenant();
    const leased = await leasedFleet(owner);
    const stream = await open(workspaceStream(owner, "?kinds=event_received,gate_opened"), owner.apiKey);
    try {
      const leaseBase = `/v1/runners/me/leases/${leased.lease.lease_id}`;
      const fencing = { fencing_token: leased.lease.fencing_token };
      const schedule = await call<{ schedule_id: string }>("POST", `${leaseBase}/schedules`, {
        token: leased.runner.token,
        body: { ...fencing, cron: "0 9 * * *", message: "daily digest" },
      });
      expect(schedule.status, schedule.text).toBe(201);
      const run = await call<{ event_id: string }>(
        "POST",
        `${leaseBase}/schedules/${schedule.body.schedule_id}/runs`,
        { token: leased.runner.token, body: fencing },
      );
      expect(run.status, run.text).toBe(202);
      const cron = await stream.next((f) => f.data.event_id === run.body.event_id);
      expect(cron.data.payload).toEqual({
        event_type: "cron",
        actor: `cron:${schedule.body.schedule_id}`,
        request_preview: "daily digest",
      });

      const requested = await requestGrant(owner, leased.fleetId);
      expect(requested.status, requested.text).toBe(201);
      const gate = await stream.next((f) => f.event === "gate_opened");
      expect(gate.data).toMatchObject({
        fleet_id: leased.fleetId,
        event_id: null,
        lease_id: null,
        payload: { gate_id: requested.body.gate_id, gate_kind: "integration_grant" },
      });
    } finally {
      stream.close();
    }
  });

  it("publishes a gate closed with its stopped fleet as resolved, auto_killed", async () => {
    const owner = await seedTenant();
    const leased = await leasedFleet(owner);
    const stream = await open(
      fleetStream(owner, leased.fleetId, "?kinds=gate_opened,gate_resolved"),
      owner.apiKey,
    );
    try {
      const gate = await openGate(leased);
      expect(gate.status, gate.text).toBe(201);
      await stream.next((f) => f.event === "gate_opened");
      const stopped = await call("PATCH", `/v1/workspaces/${owner.workspaceId}/fleets/${leased.fleetId}`, {
        token: owner.apiKey,
        body: { status: "stopped" },
      });
      expect(stopped.status, stopped.text).toBe(200);
      const resolved = await stream.next((f) => f.event === "gate_resolved");
      expect(resolved.data.payload).toMatchObject({
        gate_id: gate.body.gate_id,
        outcome: "auto_killed",
        resolved_by: "system:fleet_stopped",
      });
    } finally {
      stream.close();
    }
  });

  it("sends a listener only the kinds it asked for, and refuses an unknown kind with a problem", async () => {
    const owner = await seedTenant();
    const leased = await leasedFleet(owner);
    const stream = await open(workspaceStream(owner, "?kinds=chunk,gate_opened"), owner.apiKey);
    try {
      await messageFleet(owner, leased.fleetId, "not a chunk");
      await call("POST", `/v1/runners/me/leases/${leased.lease.lease_id}/activity`, {
        token: leased.runner.token,
        body: {
          frames: [
            { tool_call_started: { name: "search", args_redacted: "" } },
            { fleet_response_chunk: { text: "only this" } },
          ],
        },
      });
      await stream.next((f) => f.event === "chunk");
      expect(stream.frames.map((f) => f.event)).toEqual(["hello", "chunk"]);
    } finally {
      stream.close();
    }
    const refused = await openStream(
      (await testApi()).baseUrl,
      workspaceStream(owner, "?kinds=chunk,thinking"),
      { token: owner.apiKey },
    );
    expect(refused.status).toBe(400);
    expect(refused.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(refused.problem.error_code).toBe("UZ-REQ-001");
  });

  it("resumes after Last-Event-ID with no gap and no duplicate, then goes live", async () => {
    const owner = await seedTenant();
    const leased = await leasedFleet(owner);
    const first = await open(fleetStream(owner, leased.fleetId, "?kinds=chunk"), owner.apiKey);
    await chunks(leased, ["one", "two", "three"]);
    await first.next((f) => f.data.payload?.text === "three");
    first.close();
    const seen = framesOf(first, "chunk");
    await chunks(leased, ["four", "five"]);

    const resumed = await open(fleetStream(owner, leased.fleetId, "?kinds=chunk"), owner.apiKey, {
      "last-event-id": seen[1]!.id!,
    });
    try {
      expect(resumed.frames[0]).toMatchObject({ event: "hello", data: { last_frame_id: seen[1]!.id } });
      await resumed.next((f) => f.data.payload?.text === "five");
      await chunks(leased, ["six"]);
      await resumed.next((f) => f.data.payload?.text === "six");
      expect(chunkTexts(resumed)).toEqual(["three", "four", "five", "six"]);
    } finally {
      resumed.close();
    }

    // The same through the query, for clients that cannot set the header.
    const byQuery = await open(
      fleetStream(owner, leased.fleetId, `?kinds=chunk&last_event_id=${seen[2]!.id}`),
      owner.apiKey,
    );
    try {
      await byQuery.next((f) => f.data.payload?.text === "six");
      expect(chunkTexts(byQuery)).toEqual(["four", "five", "six"]);
    } finally {
      byQuery.close();
    }
  });

  it("answers another tenant's workspace or fleet 404 before any stream, and never sends another workspace's frames", async () => {
    const owner = await seedTenant();
    const stranger = await seedTenant();
    const fleetId = await installFleet(owner);
    const base = (await testApi()).baseUrl;
    for (const path of [
      workspaceStream(owner),
      fleetStream(owner, fleetId),
      fleetStream(stranger, fleetId),
    ]) {
      const refused = await openStream(base, path, { token: stranger.apiKey });
      expect(refused.status, path).toBe(404);
      expect(refused.headers["content-type"]).toMatch(/^application\/problem\+json/);
    }
    const theirFleet = await installFleet(stranger);
    const mine = await open(workspaceStream(owner), owner.apiKey);
    try {
      await messageFleet(stranger, theirFleet, "theirs");
      const eventId = await messageFleet(owner, fleetId, "mine");
      await mine.next((f) => f.data.event_id === eventId);
      const events = mine.frames.slice(1);
      expect(events.every((f) => f.data.workspace_id === owner.workspaceId)).toBe(true);
      expect(events).toHaveLength(1);
    } finally {
      mine.close();
    }
  });

  it("closes a revoked key's stream with access_revoked, and lets the other streams run", async () => {
    const owner = await seedTenant();
    const fleetId = await installFleet(owner);
    const minted = await call<{ id: string; key: string }>("POST", "/v1/api-keys", {
      token: owner.apiKey,
      body: { key_name: "tail" },
    });
    expect(minted.status, minted.text).toBe(201);
    const doomed = await open(workspaceStream(owner), minted.body.key);
    const kept = await open(workspaceStream(owner), owner.apiKey);
    try {
      const revoked = await call("PATCH", `/v1/api-keys/${minted.body.id}`, {
        token: owner.apiKey,
        body: { active: false },
      });
      expect(revoked.status, revoked.text).toBe(200);
      // Well inside the 10 s periodic recheck: the revocation's own notification ends it.
      const frame: Frame = await doomed.next((f) => f.event === "access_revoked", 5_000);
      expect(frame.data).toEqual({ reason: "credential_revoked" });
      await doomed.ended;
      const eventId = await messageFleet(owner, fleetId, "still here");
      await kept.next((f) => f.data.event_id === eventId);
    } finally {
      doomed.close();
      kept.close();
    }
  });

  it("ends a removed member's streams, on their session and on the keys they minted", async () => {
    const owner = await seedTenant();
    const fleetId = await installFleet(owner);
    const member = await seedMember(owner, ["fleet:read", "apikey:write"]);
    const minted = await call<{ key: string }>("POST", "/v1/api-keys", {
      token: member.token,
      body: { key_name: "member's tail" },
    });
    expect(minted.status, minted.text).toBe(201);
    const bySession = await open(workspaceStream(owner), member.token);
    const byKey = await open(workspaceStream(owner), minted.body.key);
    const kept = await open(workspaceStream(owner), owner.apiKey);
    try {
      const removed = await call("DELETE", `/v1/tenants/me/members/${member.userId}`, {
        token: owner.apiKey,
      });
      expect(removed.status, removed.text).toBe(204);
      for (const stream of [bySession, byKey]) {
        // Well inside the 10 s periodic recheck: the removal's own notification ends them.
        await stream.next((f) => f.event === "access_revoked", 5_000);
        await stream.ended;
      }
      const eventId = await messageFleet(owner, fleetId, "the owner still listens");
      await kept.next((f) => f.data.event_id === eventId);
    } finally {
      bySession.close();
      byKey.close();
      kept.close();
    }
  });

  it("is not served over /trpc, after the same checks", async () => {
    const owner = await seedTenant();
    const input = encodeURIComponent(JSON.stringify({ workspace_id: owner.workspaceId }));
    const answer = await call<{ error: { data: { problem: { error_code: string } } } }>(
      "GET",
      `/trpc/fleetEvents.streamWorkspace?input=${input}`,
      { token: owner.apiKey },
    );
    expect(answer.status).toBe(405);
    expect(answer.body.error.data.problem.error_code).toBe("UZ-REQ-005");
  });
});

describe("live-tail streams at their limits", () => {
  useIsolatedApi({
    FLEET_STREAM_HEARTBEAT_MS: "200",
    FLEET_MAX_STREAMS: "2",
    // Two open streams would fill it, if streams counted as requests in flight.
    FLEET_MAX_IN_FLIGHT: "2",
    FLEET_STREAM_REPLAY_FRAMES: "3",
    FLEET_STREAM_MAX_BUFFERED: "65536",
  });

  it("answers 503 UZ-API-002 with Retry-After past the subscriber cap, and admits again once one closes", async () => {
    const owner = await seedTenant();
    const a = await open(workspaceStream(owner), owner.apiKey);
    const b = await open(workspaceStream(owner), owner.apiKey);
    const base = (await testApi()).baseUrl;
    // The streams left the in-flight count: requests are still answered beside them.
    const me = await call("GET", "/v1/users/me", { token: owner.apiKey });
    expect(me.status, me.text).toBe(200);
    const refused = await openStream(base, workspaceStream(owner), { token: owner.apiKey });
    expect(refused.status).toBe(503);
    expect(refused.problem.error_code).toBe("UZ-API-002");
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    a.close();
    await a.ended;
    b.close();
    await b.ended;
    // The server hears of the closes on its own time: retry as a client told Retry-After would.
    let admitted: OpenedStream | null = null;
    for (let attempt = 0; attempt < 50 && admitted === null; attempt++) {
      const again = await openStream(base, workspaceStream(owner), { token: owner.apiKey });
      if (again.status === 200) admitted = again;
      else await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(admitted).not.toBeNull();
    admitted!.close();
  });

  it("sends a heartbeat to a stream that has been idle", async () => {
    const owner = await seedTenant();
    const stream = await open(workspaceStream(owner), owner.apiKey);
    try {
      const beat = await stream.next((f) => f.event === "heartbeat");
      expect(beat.id).toBeNull();
      expect(Number.isInteger(beat.data.at)).toBe(true);
    } finally {
      stream.close();
      await stream.ended;
    }
  });

  it("sends reset when more frames followed Last-Event-ID than the window replays", async () => {
    const owner = await seedTenant();
    const leased = await leasedFleet(owner);
    const first = await open(fleetStream(owner, leased.fleetId, "?kinds=chunk"), owner.apiKey);
    await chunks(leased, ["a"]);
    const a = await first.next((f) => f.event === "chunk");
    await chunks(leased, ["b", "c", "d", "e"]);
    // Stored (publication is asynchronous) before anyone resumes.
    await first.next((f) => f.data.payload?.text === "e");
    first.close();
    await first.ended;
    // Past the window's newest frame, too: an id never issued is no place to resume from.
    for (const lastId of [a.id!, "999999999999"]) {
      const resumed = await open(fleetStream(owner, leased.fleetId), owner.apiKey, {
        "last-event-id": lastId,
      });
      try {
        const reset = await resumed.next((f) => f.event === "reset");
        expect(reset.data).toEqual({ reason: "gap_too_old" });
        // Nothing replayed: the reset follows hello, before any live frame.
        expect(resumed.frames.slice(0, 2).map((f) => f.event)).toEqual(["hello", "reset"]);
        // Then live, whatever the id it was given.
        await chunks(leased, [`live after ${lastId}`]);
        await resumed.next((f) => f.data.payload?.text === `live after ${lastId}`);
      } finally {
        resumed.close();
        await resumed.ended;
      }
    }
  });

  it("keeps a reader that reads, however much one batch of frames holds", async () => {
    const owner = await seedTenant();
    const leased = await leasedFleet(owner);
    const api = await testApi();
    const before = api.app.services.streams.stats().dropped;
    const stream = await open(fleetStream(owner, leased.fleetId, "?kinds=chunk"), owner.apiKey);
    try {
      // Published in one tick: one flush, one NOTIFY (by reference: too big to carry), one batch of 2.4 MB
      // for this stream, more than the 1 MiB a reader may leave unread. The stream sends it as it goes.
      const texts = Array.from({ length: 40 }, (_, n) => `${n} ${"x".repeat(60_000)}`);
      for (const text of texts)
        api.app.services.streams.publish({
          workspaceId: owner.workspaceId,
          fleetId: leased.fleetId,
          eventId: leased.lease.event_id,
          leaseId: leased.lease.lease_id,
          kind: "chunk",
          payload: { text },
          at: Date.now(),
        });
      await stream.next((f) => f.event === "chunk" && f.data.payload.text === texts.at(-1), 10_000);
      expect(chunkTexts(stream)).toEqual(texts);
      expect(api.app.services.streams.stats().dropped).toBe(before);
    } finally {
      stream.close();
      await stream.ended;
    }
  });

  it("drops a reader that stops reading rather than buffer for it", async () => {
    const owner = await seedTenant();
    const leased = await leasedFleet(owner);
    const api = await testApi();
    const before = api.app.services.streams.stats().dropped;
    expect(api.app.services.streams.stats().open).toBe(0);
    const slow = await open(fleetStream(owner, leased.fleetId), owner.apiKey);
    slow.pause();
    const big = "x".repeat(60_000);
    // Enough to fill the loopback socket's buffers and then the server's bound.
    for (let round = 0; round < 2_000 && api.app.services.streams.stats().dropped === before; round++) {
      await chunks(leased, [big]);
    }
    expect(api.app.services.streams.stats()).toMatchObject({ dropped: before + 1, open: 0 });
    slow.close();
  });
});
