import { describe, expect, it } from "vitest";
import { leasedFleet } from "./approval-fixtures.ts";
import { installFleet, messageFleet } from "./fleet-fixtures.ts";
import { call, callAt, databaseKind, seedTenant, startApi, type TestApi, testApi } from "./harness.ts";
import { openStream } from "./stream-fixtures.ts";

// Instances share frames only through PostgreSQL's NOTIFY: PGlite is one process's database.
describe.runIf(databaseKind === "postgres")("streams across instances", () => {
  async function withSecond(run: (first: TestApi, second: TestApi) => Promise<void>) {
    const first = await testApi();
    const second = await startApi({ DATABASE_URL: first.config.databaseUrl });
    try {
      await run(first, second);
    } finally {
      await second.app.close();
      await second.database.close();
    }
  }

  it("delivers a frame published through one instance to a stream on another, a big one by reference", async () => {
    await withSecond(async (first, second) => {
      const owner = await seedTenant();
      const leased = await leasedFleet(owner);
      const path = `/v1/workspaces/${owner.workspaceId}/fleets/${leased.fleetId}/events/stream`;
      const stream = await openStream(first.baseUrl, path, { token: owner.apiKey });
      expect(stream.status).toBe(200);
      try {
        const message = await callAt<{ event_id: string }>(
          second.baseUrl,
          "POST",
          `/v1/workspaces/${owner.workspaceId}/fleets/${leased.fleetId}/messages`,
          { token: owner.apiKey, body: { message: "through the second instance" } },
        );
        expect(message.status, message.text).toBe(202);
        await stream.next((f) => f.event === "event_received" && f.data.event_id === message.body.event_id);

        // Over NOTIFY's 8,000-byte payload: it travels as the ids of its stored rows.
        const big = "y".repeat(20_000);
        const published = await callAt(
          second.baseUrl,
          "POST",
          `/v1/runners/me/leases/${leased.lease.lease_id}/activity`,
          { token: leased.runner.token, body: { frames: [{ fleet_response_chunk: { text: big } }] } },
        );
        expect(published.status, published.text).toBe(202);
        const chunk = await stream.next((f) => f.event === "chunk");
        expect(chunk.data.payload.text).toBe(big);
      } finally {
        stream.close();
      }
    });
  });

  it("ends its streams with a retry hint when an instance shuts down, and the client resumes on the other", async () => {
    const first = await testApi();
    const second = await startApi({ DATABASE_URL: first.config.databaseUrl });
    const owner = await seedTenant();
    const fleetId = await installFleet(owner);
    const path = `/v1/workspaces/${owner.workspaceId}/events/stream`;
    const stream = await openStream(second.baseUrl, path, { token: owner.apiKey });
    expect(stream.status).toBe(200);
    try {
      const eventId = await messageFleet(owner, fleetId, "before the shutdown");
      const seen = await stream.next((f) => f.data.event_id === eventId);
      await second.app.close();
      await stream.ended;
      expect(stream.retries).toEqual([2000, 2000]);
      const missed = await messageFleet(owner, fleetId, "while reconnecting");
      const resumed = await openStream(first.baseUrl, path, {
        token: owner.apiKey,
        headers: { "last-event-id": seen.id! },
      });
      try {
        await resumed.next((f) => f.data.event_id === missed);
      } finally {
        resumed.close();
      }
    } finally {
      stream.close();
      await second.database.close();
    }
  });

  it("closes a stream on one instance when its key is revoked through another", async () => {
    await withSecond(async (_first, second) => {
      const owner = await seedTenant();
      await installFleet(owner);
      const minted = await call<{ id: string; key: string }>("POST", "/v1/api-keys", {
        token: owner.apiKey,
        body: { key_name: "tail on the second" },
      });
      expect(minted.status, minted.text).toBe(201);
      const stream = await openStream(second.baseUrl, `/v1/workspaces/${owner.workspaceId}/events/stream`, {
        token: minted.body.key,
      });
      expect(stream.status).toBe(200);
      try {
        const revoked = await call("PATCH", `/v1/api-keys/${minted.body.id}`, {
          token: owner.apiKey,
          body: { active: false },
        });
        expect(revoked.status, revoked.text).toBe(200);
        // Well inside the 10 s periodic recheck: the revocation's NOTIFY ends it.
        const frame = await stream.next((f) => f.event === "access_revoked", 5_000);
        expect(frame.data).toEqual({ reason: "credential_revoked" });
        await stream.ended;
      } finally {
        stream.close();
      }
    });
  });
});
