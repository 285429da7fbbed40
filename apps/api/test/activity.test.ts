import { describe, expect, it } from "vitest";
import { labelledFleet, messageFleet, uniqueLabel } from "./fleet-fixtures.ts";
import { call, seedTenant, type Tenant, testApi, useIsolatedApi } from "./harness.ts";
import { acquire, enrollRunner } from "./runner-fixtures.ts";
import { openStream } from "./stream-fixtures.ts";

/** A fleet only this file's runners may lease, with a message waiting. */
async function labelledWork(tenant: Tenant, label: string): Promise<{ fleetId: string; eventId: string }> {
  const fleetId = await labelledFleet(tenant, label);
  const eventId = await messageFleet(tenant, fleetId, `work for ${label}`);
  return { fleetId, eventId };
}

// Runners lease any tenant's waiting work: this file runs on a database of its own.
useIsolatedApi();

describe("activity", () => {
  it("accepts the four activity frame variants for publication, refusing unknown ones whole", async () => {
    const tenant = await seedTenant();
    const label = uniqueLabel();
    const { fleetId, eventId } = await labelledWork(tenant, label);
    const runner = await enrollRunner({ labels: [label] });
    const lease = (await acquire(runner)).body.lease!;
    const api = await testApi();
    const stream = await openStream(
      api.baseUrl,
      `/v1/workspaces/${tenant.workspaceId}/fleets/${fleetId}/events/stream?kinds=chunk,tool_call_started,tool_call_progress,tool_call_completed`,
      { token: tenant.apiKey },
    );
    expect(stream.status).toBe(200);
    const seen = () => stream.frames.filter((frame) => frame.data.lease_id === lease.lease_id);
    try {
      const path = `/v1/runners/me/leases/${lease.lease_id}/activity`;
      const frames = [
        { tool_call_started: { name: "search", args_redacted: '{"q":"[redacted]"}' } },
        { tool_call_progress: { name: "search", elapsed_ms: 120 } },
        { fleet_response_chunk: { text: "Found 3 incidents" } },
        { tool_call_completed: { name: "search", ms: 240 } },
      ];
      for (const frame of frames) {
        const accepted = await call("POST", path, { token: runner.token, body: { frames: [frame] } });
        expect(accepted.status).toBe(202);
        expect(accepted.body).toEqual({ ok: true });
      }
      await stream.next((frame) => frame.event === "tool_call_completed");
      expect(seen().map((frame) => frame.event)).toEqual([
        "tool_call_started",
        "tool_call_progress",
        "chunk",
        "tool_call_completed",
      ]);
      expect(seen()[0]!.data).toMatchObject({
        fleet_id: fleetId,
        event_id: eventId,
        workspace_id: tenant.workspaceId,
        payload: { name: "search", args_redacted: '{"q":"[redacted]"}' },
      });
      for (const frames of [
        [{ tool_call_started: { name: "x", args_redacted: "", extra: 1 } }],
        [{ thinking: { text: "hmm" } }],
        [{ fleet_response_chunk: { text: "ok" } }, { bogus: {} }],
        [],
      ]) {
        const refused = await call("POST", path, { token: runner.token, body: { frames } });
        expect(refused.status, JSON.stringify(frames)).toBe(400);
        expect(refused.body.error_code).toBe("UZ-REQ-001");
      }
      // A refused batch publishes nothing: a frame published after them is the next one to arrive.
      await call("POST", path, {
        token: runner.token,
        body: { frames: [{ fleet_response_chunk: { text: "last" } }] },
      });
      await stream.next((frame) => frame.data.payload?.text === "last");
      expect(seen()).toHaveLength(5);
    } finally {
      stream.close();
    }
  });
});
