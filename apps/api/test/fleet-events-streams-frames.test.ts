import { describe, expect, it } from "vitest";
import { leasedFleet, openGate } from "./approval-fixtures.ts";
import { messageFleet } from "./fleet-fixtures.ts";
import { requestGrant } from "./grant-fixtures.ts";
import { call, seedTenant, testApi } from "./harness.ts";
import { report } from "./runner-fixtures.ts";
import {
  chunkTexts,
  fleetStream,
  framesOf,
  openStream,
  openTail,
  publishChunks,
  workspaceStream,
} from "./stream-fixtures.ts";

// What the live tail sends: hello, then each publisher's frames by kind, filtered, resumable.
describe("live-tail streams", () => {
  it("sends hello first, then every publisher's frame, named by kind, with increasing ids", async () => {
    const owner = await seedTenant();
    const leased = await leasedFleet(owner);
    const stream = await openTail(fleetStream(owner, leased.fleetId), owner.apiKey);
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
      // The origin's command-line client reads the payload's fields at the top level of `data`.
      expect(complete.data).toMatchObject({ status: "processed", wall_ms: 900, tokens: 1200 });
      expect(stream.frames.find((f) => f.event === "chunk")?.data).toMatchObject({
        text: "Found 3 incidents",
      });
      expect(stream.frames.find((f) => f.event === "tool_call_started")?.data).toMatchObject({
        name: "search",
      });
      expect(opened.data).toMatchObject({ gate_id: gate.body.gate_id, kind: "gate_opened" });

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

  it("sends a batch too large for one NOTIFY whole and in order, a frame too large for any by reference", async () => {
    const owner = await seedTenant();
    const leased = await leasedFleet(owner);
    const stream = await openTail(fleetStream(owner, leased.fleetId, "?kinds=chunk"), owner.apiKey);
    try {
      // One activity call is one flush: ~40 KB of frames, sent in several NOTIFYs of one commit, and
      // the frame of 20,000 characters in the middle as the range of its part's ids.
      const texts = Array.from({ length: 64 }, (_, n) =>
        n === 31 ? "z".repeat(20_000) : `chunk ${n} ${"x".repeat(400)}`,
      );
      await publishChunks(leased, texts);
      await stream.next((f) => f.data.payload?.text === texts[63]);
      expect(chunkTexts(stream)).toEqual(texts);
      const ids = framesOf(stream, "chunk").map((f) => Number(f.id));
      expect(ids.every((id, n) => n === 0 || id === ids[n - 1]! + 1)).toBe(true);
    } finally {
      stream.close();
    }
  });

  it("publishes a cron event entering and an integration grant's gate opening", async () => {
    const owner = await seedTenant();
    const leased = await leasedFleet(owner);
    const stream = await openTail(workspaceStream(owner, "?kinds=event_received,gate_opened"), owner.apiKey);
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
        // The id of its `event.received` outgoing event, minted whether or not an endpoint subscribes.
        webhook_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
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
    const stream = await openTail(
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
    const stream = await openTail(workspaceStream(owner, "?kinds=chunk,gate_opened"), owner.apiKey);
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
    const first = await openTail(fleetStream(owner, leased.fleetId, "?kinds=chunk"), owner.apiKey);
    await publishChunks(leased, ["one", "two", "three"]);
    await first.next((f) => f.data.payload?.text === "three");
    first.close();
    const seen = framesOf(first, "chunk");
    await publishChunks(leased, ["four", "five"]);

    const resumed = await openTail(fleetStream(owner, leased.fleetId, "?kinds=chunk"), owner.apiKey, {
      "last-event-id": seen[1]!.id!,
    });
    try {
      expect(resumed.frames[0]).toMatchObject({ event: "hello", data: { last_frame_id: seen[1]!.id } });
      await resumed.next((f) => f.data.payload?.text === "five");
      await publishChunks(leased, ["six"]);
      await resumed.next((f) => f.data.payload?.text === "six");
      expect(chunkTexts(resumed)).toEqual(["three", "four", "five", "six"]);
    } finally {
      resumed.close();
    }

    // The same through the query, for clients that cannot set the header.
    const byQuery = await openTail(
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
});
