import { describe, expect, it } from "vitest";
import { leasedFleet } from "./approval-fixtures.ts";
import { call, seedTenant, testApi, useIsolatedApi } from "./harness.ts";
import {
  chunkTexts,
  fleetStream,
  type OpenedStream,
  openStream,
  openTail,
  publishChunks,
  workspaceStream,
} from "./stream-fixtures.ts";

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
    const a = await openTail(workspaceStream(owner), owner.apiKey);
    const b = await openTail(workspaceStream(owner), owner.apiKey);
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
    const stream = await openTail(workspaceStream(owner), owner.apiKey);
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
    const first = await openTail(fleetStream(owner, leased.fleetId, "?kinds=chunk"), owner.apiKey);
    await publishChunks(leased, ["a"]);
    const a = await first.next((f) => f.event === "chunk");
    await publishChunks(leased, ["b", "c", "d", "e"]);
    // Stored (publication is asynchronous) before anyone resumes.
    await first.next((f) => f.data.payload?.text === "e");
    first.close();
    await first.ended;
    // Past the window's newest frame, too: an id never issued is no place to resume from.
    for (const lastId of [a.id!, "999999999999"]) {
      const resumed = await openTail(fleetStream(owner, leased.fleetId), owner.apiKey, {
        "last-event-id": lastId,
      });
      try {
        const reset = await resumed.next((f) => f.event === "reset");
        expect(reset.data).toEqual({ reason: "gap_too_old" });
        // Nothing replayed: the reset follows hello, before any live frame.
        expect(resumed.frames.slice(0, 2).map((f) => f.event)).toEqual(["hello", "reset"]);
        // Then live, whatever the id it was given.
        await publishChunks(leased, [`live after ${lastId}`]);
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
    const stream = await openTail(fleetStream(owner, leased.fleetId, "?kinds=chunk"), owner.apiKey);
    try {
      // Published in one tick: one flush, one NOTIFY (by reference: too big to carry), one batch of 2.4 MB
      // for this stream, more than the 1 MiB a reader may leave unread. The stream sends it as it goes.
      // (A chunk's text travels twice in its frame, at the top level and in the payload: 60 kB a frame.)
      const texts = Array.from({ length: 40 }, (_, n) => `${n} ${"x".repeat(30_000)}`);
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
    const slow = await openTail(fleetStream(owner, leased.fleetId), owner.apiKey);
    slow.pause();
    const big = "x".repeat(60_000);
    // Enough to fill the loopback socket's buffers and then the server's bound.
    for (let round = 0; round < 2_000 && api.app.services.streams.stats().dropped === before; round++) {
      await publishChunks(leased, [big]);
    }
    expect(api.app.services.streams.stats()).toMatchObject({ dropped: before + 1, open: 0 });
    slow.close();
  });
});
