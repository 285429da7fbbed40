import type { OutputOf } from "@fleet/contracts";
import type { listMemories } from "@fleet/contracts/memories/list-memories";
import { fleetMemories } from "@fleet/db";
import { describe, expect, it } from "vitest";
import { newId } from "../src/runtime/ids.ts";
import { installFleet, labelledFleet, messageFleet, uniqueLabel } from "./fleet-fixtures.ts";
import { call, seedTenant, type Tenant, testApi, useIsolatedApi } from "./harness.ts";
import { acquire, enrollRunner } from "./runner-fixtures.ts";

/** A fleet only this file's runners may lease, with a message waiting. */
async function labelledWork(tenant: Tenant, label: string): Promise<{ fleetId: string; eventId: string }> {
  const fleetId = await labelledFleet(tenant, label);
  const eventId = await messageFleet(tenant, fleetId, `work for ${label}`);
  return { fleetId, eventId };
}

// Runners lease any tenant's waiting work: this file runs on a database of its own.
useIsolatedApi();

describe("memories", () => {
  async function remember(fleetId: string, rows: { key: string; category: string; content: string }[]) {
    const api = await testApi();
    let at = Date.now();
    for (const row of rows) {
      at += 1;
      await api.database.db
        .insert(fleetMemories)
        .values({ id: newId(at), fleetId, ...row, createdAt: at, updatedAt: at });
    }
  }

  it("lists recent memories, by category and by text search, each paged by cursor", async () => {
    const tenant = await seedTenant();
    const fleetId = await installFleet(tenant);
    await remember(fleetId, [
      { key: "deploy-window", category: "ops", content: "Deploys happen on Tuesday mornings" },
      { key: "oncall", category: "people", content: "Alice is on call this week" },
      { key: "db-version", category: "ops", content: "The primary database runs PostgreSQL 16" },
      { key: "retro", category: "people", content: "Retro moved to Thursday" },
    ]);
    const base = `/v1/workspaces/${tenant.workspaceId}/fleets/${fleetId}/memories`;
    type MemoryPage = OutputOf<typeof listMemories>;
    const all = await call<MemoryPage>("GET", base, { token: tenant.apiKey });
    expect(all.body.items.map((m) => m.key)).toEqual(["retro", "db-version", "oncall", "deploy-window"]);
    expect(all.body.total).toBe(4);
    expect(all.body.items[0]).toEqual({
      key: "retro",
      category: "people",
      content: "Retro moved to Thursday",
      created_at: expect.any(Number),
      updated_at: expect.any(Number),
    });

    const ops = await call<MemoryPage>("GET", `${base}?category=ops&limit=1`, { token: tenant.apiKey });
    expect(ops.body.items.map((m) => m.key)).toEqual(["db-version"]);
    expect(ops.body.total).toBe(2);
    const next = await call<MemoryPage>(
      "GET",
      `${base}?category=ops&limit=1&starting_after=${ops.body.next_cursor}`,
      {
        token: tenant.apiKey,
      },
    );
    expect(next.body.items.map((m) => m.key)).toEqual(["deploy-window"]);
    expect(next.body.next_cursor).toBeNull();
    const misused = await call("GET", `${base}?limit=1&starting_after=${ops.body.next_cursor}`, {
      token: tenant.apiKey,
    });
    expect(misused.status).toBe(400);

    const search = await call<MemoryPage>(
      "GET",
      `${base}?query=${encodeURIComponent("postgresql primary")}`,
      {
        token: tenant.apiKey,
      },
    );
    expect(search.body.items.map((m) => m.key)).toEqual(["db-version"]);
    expect(search.body.total).toBe(1);
    const byKey = await call<MemoryPage>("GET", `${base}?query=oncall`, { token: tenant.apiKey });
    expect(byKey.body.items.map((m) => m.key)).toEqual(["oncall"]);
    const none = await call<MemoryPage>("GET", `${base}?query=kubernetes`, { token: tenant.apiKey });
    expect(none.body).toEqual({ items: [], total: 0, next_cursor: null });
  });

  it("writes the leased fleet's memories under the fence, readable by people", async () => {
    const tenant = await seedTenant();
    const label = uniqueLabel();
    const { fleetId } = await labelledWork(tenant, label);
    const runner = await enrollRunner({ labels: [label] });
    const lease = (await acquire(runner)).body.lease!;
    const path = `/v1/runners/me/leases/${lease.lease_id}/memories`;
    const written = await call("PUT", `${path}/oncall`, {
      token: runner.token,
      body: { fencing_token: lease.fencing_token, category: "people", content: "Alice this week" },
    });
    expect(written.status).toBe(200);
    await call("PUT", `${path}/oncall`, {
      token: runner.token,
      body: { fencing_token: lease.fencing_token, category: "people", content: "Bob this week" },
    });
    const read = await call<OutputOf<typeof listMemories>>(
      "GET",
      `/v1/workspaces/${tenant.workspaceId}/fleets/${fleetId}/memories`,
      { token: tenant.apiKey },
    );
    expect(read.body.items).toMatchObject([{ key: "oncall", content: "Bob this week" }]);
    const removed = await call("DELETE", `${path}/oncall?fencing_token=${lease.fencing_token}`, {
      token: runner.token,
    });
    expect(removed.status).toBe(204);
  });
});
