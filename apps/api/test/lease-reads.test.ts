import { eq, fleetEvents } from "@fleet/db";
import { describe, expect, it } from "vitest";
import { labelledFleet, messageFleet, uniqueLabel } from "./fleet-fixtures.ts";
import { call, seedTenant, testApi } from "./harness.ts";
import { type EnrolledRunner, type HeldLease, leaseFleet } from "./runner-fixtures.ts";

// Issue 32: the agent's fenced reads of its fleet: the recent conversation (bounded in tokens) and a
// search of its memories.

async function answered(eventId: string, status: "processed" | "fleet_error", responseText: string | null) {
  const api = await testApi();
  await api.database.db
    .update(fleetEvents)
    .set({ status, responseText, updatedAt: Date.now() })
    .where(eq(fleetEvents.id, eventId));
}

async function leased(): Promise<{
  runner: EnrolledRunner;
  lease: HeldLease;
  owner: Awaited<ReturnType<typeof seedTenant>>;
  fleetId: string;
}> {
  const owner = await seedTenant();
  const label = uniqueLabel();
  const fleetId = await labelledFleet(owner, label);
  const first = await messageFleet(owner, fleetId, "first");
  const second = await messageFleet(owner, fleetId, "second");
  const third = await messageFleet(owner, fleetId, "third");
  const failed = await messageFleet(owner, fleetId, "failed");
  await answered(first, "processed", "x".repeat(40_000));
  await answered(second, "processed", "y".repeat(20_000));
  await answered(third, "processed", "three");
  await answered(failed, "fleet_error", null);
  await messageFleet(owner, fleetId, "now");
  const { runner, lease } = await leaseFleet(label, fleetId);
  return { runner, lease, owner, fleetId };
}

function read(runner: EnrolledRunner, lease: HeldLease, what: string, token = lease.fencing_token) {
  return call<Record<string, unknown>>("GET", `/v1/runners/me/leases/${lease.lease_id}/${what}`, {
    token: runner.token,
    headers: { "fleet-fencing-token": String(token) },
  });
}

describe("a lease's context", () => {
  it("holds the answered turns before the event, newest first, as many whole as fit in 8,000 tokens", async () => {
    const { runner, lease } = await leased();
    const context = await read(runner, lease, "context");
    expect(context.status, context.text).toBe(200);
    const turns = context.body.turns as { request: string; response: string }[];
    expect(turns.map((turn) => [turn.request, turn.response.length])).toEqual([
      ["third", 5],
      ["second", 20_000],
    ]);
    expect(context.body).toMatchObject({ tokens: Math.ceil(20_016 / 4), max_tokens: 8_000 });
    const stale = await read(runner, lease, "context", lease.fencing_token + 1);
    expect(stale.status).toBe(409);
    expect(stale.body.error_code).toBe("UZ-RUN-005");
    const missing = await call("GET", `/v1/runners/me/leases/${lease.lease_id}/context`, {
      token: runner.token,
    });
    expect(missing.status).toBe(400);
  });
});

describe("a lease's memory search", () => {
  it("finds the fleet's memories by words and category, newest first, fenced", async () => {
    const { runner, lease } = await leased();
    for (const [key, content, category] of [
      ["deploy-window", "Deploys happen on Tuesdays", "ops"],
      ["coffee", "The team likes espresso", "general"],
      ["rollback", "Deploys roll back with one command", "ops"],
    ]) {
      const written = await call("PUT", `/v1/runners/me/leases/${lease.lease_id}/memories/${key}`, {
        token: runner.token,
        body: { fencing_token: lease.fencing_token, content, category },
      });
      expect(written.status, written.text).toBe(200);
    }
    const found = await read(runner, lease, "memories?query=deploys");
    expect(found.status, found.text).toBe(200);
    expect((found.body.items as { key: string }[]).map((item) => item.key)).toEqual([
      "rollback",
      "deploy-window",
    ]);
    const general = await read(runner, lease, "memories?category=general&limit=1");
    expect((general.body.items as { key: string }[]).map((item) => item.key)).toEqual(["coffee"]);
    const bad = await read(runner, lease, "memories?limit=21");
    expect(bad.status).toBe(400);
    const hostile = await read(runner, lease, `memories?query=${encodeURIComponent("a\u0000b")}`);
    expect(hostile.status).toBe(400);
    const stale = await read(runner, lease, "memories", lease.fencing_token + 1);
    expect(stale.status).toBe(409);
    expect(stale.body.error_code).toBe("UZ-RUN-005");
  });
});
