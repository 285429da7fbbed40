import type { OutputOf } from "@fleet/contracts";
import type { listLeaseFrames } from "@fleet/contracts/runners/list-lease-frames";
import { eq, runFrames } from "@fleet/db";
import { describe, expect, it } from "vitest";
import { newId } from "../src/runtime/ids.ts";
import { StreamHub } from "../src/runtime/stream-hub.ts";
import { labelledFleet, messageFleet, uniqueLabel } from "./fleet-fixtures.ts";
import { call, operatorToken, seedTenant, testApi, useIsolatedApi } from "./harness.ts";
import { acquire, enrollRunner } from "./runner-fixtures.ts";
import { publishKept } from "./stream-fixtures.ts";

type FramePage = OutputOf<typeof listLeaseFrames>;

// Runners lease any tenant's waiting work: this file runs on a database of its own.
useIsolatedApi();

const DAY_MS = 24 * 3_600_000;

describe("the frames a lease's run published", () => {
  it("lists them for the lease oldest first, by cursor, refuses other leases, caps them per lease and prunes them by age", async () => {
    const tenant = await seedTenant();
    const label = uniqueLabel();
    const fleetId = await labelledFleet(tenant, label);
    await messageFleet(tenant, fleetId, "look into the incidents");
    const runner = await enrollRunner({ labels: [label] });
    const other = await enrollRunner({ labels: [uniqueLabel()] });
    const lease = (await acquire(runner)).body.lease!;
    const api = await testApi();
    const reader = await operatorToken(["runner:read"]);
    const path = `/v1/fleets/runners/${runner.runnerId}/leases/${lease.lease_id}/frames`;

    const empty = await call<FramePage>("GET", path, { token: reader });
    expect(empty.status, empty.text).toBe(200);
    expect(empty.body).toEqual({ items: [], next_cursor: null, retention_hours: 168 });

    await publishKept(
      tenant,
      fleetId,
      { token: runner.token, leaseId: lease.lease_id },
      [
        [{ tool_call_started: { name: "search", args_redacted: '{"q":"[redacted]"}' } }],
        [{ tool_call_progress: { name: "search", elapsed_ms: 120 } }],
        [{ tool_call_completed: { name: "search", ms: 240 } }],
        [{ fleet_response_chunk: { text: "Found 3 " } }, { fleet_response_chunk: { text: "incidents" } }],
      ],
      "incidents",
    );

    const seen: FramePage["items"] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = cursor === null ? "?limit=2" : `?limit=2&starting_after=${cursor}`;
      const page: { status: number; body: FramePage } = await call<FramePage>("GET", `${path}${query}`, {
        token: reader,
      });
      expect(page.status).toBe(200);
      expect(page.body.items.length).toBeLessThanOrEqual(2);
      seen.push(...page.body.items);
      cursor = page.body.next_cursor;
      pages++;
    } while (cursor !== null && pages < 10);
    expect(pages).toBe(3);
    expect(seen.map((frame) => frame.kind)).toEqual([
      "tool_call_started",
      "tool_call_progress",
      "tool_call_completed",
      "chunk",
      "chunk",
    ]);
    expect(seen[0]!.payload).toEqual({ name: "search", args_redacted: '{"q":"[redacted]"}' });
    expect(seen.slice(3).map((frame) => frame.payload.text)).toEqual(["Found 3 ", "incidents"]);
    const ids = seen.map((frame) => Number(frame.frame_id));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(5);

    // Another runner's lease, an unknown lease and an unknown runner are 404s.
    const theirs = await call("GET", `/v1/fleets/runners/${other.runnerId}/leases/${lease.lease_id}/frames`, {
      token: reader,
    });
    expect(theirs.status).toBe(404);
    expect(theirs.body.error_code).toBe("UZ-RUN-001");
    const unknownLease = "01900000-0000-7000-8000-000000000000";
    const absent = await call("GET", `/v1/fleets/runners/${runner.runnerId}/leases/${unknownLease}/frames`, {
      token: reader,
    });
    expect(absent.status).toBe(404);
    expect(absent.body.error_code).toBe("UZ-RUN-001");
    const noRunner = await call("GET", `/v1/fleets/runners/${unknownLease}/leases/${lease.lease_id}/frames`, {
      token: reader,
    });
    expect(noRunner.status).toBe(404);
    expect(noRunner.body.error_code).toBe("UZ-RUN-014");
    for (const bad of ["limit=201", "limit=0", "starting_after=nonsense"]) {
      const refused = await call("GET", `${path}?${bad}`, { token: reader });
      expect(refused.status, bad).toBe(400);
      expect(refused.body.error_code).toBe("UZ-REQ-001");
    }
    // The pruner keeps frames inside the retention and drops them past it.
    const hub = api.app.services.streams;
    await hub.pruneRunFrames(Date.now() + 6 * DAY_MS);
    expect((await call<FramePage>("GET", path, { token: reader })).body.items).toHaveLength(5);
    await hub.pruneRunFrames(Date.now() + 8 * DAY_MS);
    expect((await call<FramePage>("GET", path, { token: reader })).body).toEqual({
      items: [],
      next_cursor: null,
      retention_hours: 168,
    });

    // A lease keeps only its first frames: with a cap of 3, a run that publishes 5 keeps the first 3, the
    // room left counted across batches (two kept by one flush, then one of the next flush's three) and for
    // each lease on its own (another lease's two frames in the second flush are both kept).
    const otherLease = newId(Date.now());
    for (const texts of [
      ["one", "two"],
      ["three", "four", "five"],
    ]) {
      const capped = new StreamHub({ runFramesPerLease: 3 });
      await capped.start(api.database);
      for (const text of texts)
        capped.publish({
          workspaceId: tenant.workspaceId,
          fleetId,
          eventId: lease.event_id,
          leaseId: lease.lease_id,
          kind: "chunk",
          payload: { text },
          at: Date.now(),
        });
      if (texts.length === 3)
        for (const text of ["six", "seven"])
          capped.publish({
            workspaceId: tenant.workspaceId,
            fleetId,
            eventId: lease.event_id,
            leaseId: otherLease,
            kind: "chunk",
            payload: { text },
            at: Date.now(),
          });
      await capped.stop();
    }
    const kept = await call<FramePage>("GET", path, { token: reader });
    expect(kept.body.items.map((frame) => frame.payload.text)).toEqual(["one", "two", "three"]);
    const others = await api.database.db.select().from(runFrames).where(eq(runFrames.leaseId, otherLease));
    expect(others.map((frame) => (frame.payload as { text: string }).text)).toEqual(["six", "seven"]);
  });
});
