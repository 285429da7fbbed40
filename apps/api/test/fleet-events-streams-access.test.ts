import { describe, expect, it } from "vitest";
import { installFleet, messageFleet } from "./fleet-fixtures.ts";
import { call, seedMember, seedTenant, testApi } from "./harness.ts";
import { type Frame, fleetStream, openStream, openTail, workspaceStream } from "./stream-fixtures.ts";

// Who may listen: another tenant is refused before any stream, and revoking access ends the streams.
describe("live-tail streams", () => {
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
    const mine = await openTail(workspaceStream(owner), owner.apiKey);
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
    const doomed = await openTail(workspaceStream(owner), minted.body.key);
    const kept = await openTail(workspaceStream(owner), owner.apiKey);
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
    const bySession = await openTail(workspaceStream(owner), member.token);
    const byKey = await openTail(workspaceStream(owner), minted.body.key);
    const kept = await openTail(workspaceStream(owner), owner.apiKey);
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
