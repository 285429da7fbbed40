import { beforeAll, describe, expect, it } from "vitest";
import { answerGate, leasedFleet, openMany, type RunnerGate } from "./approval-fixtures.ts";
import { call, seedTenant, testApi } from "./harness.ts";

interface Page {
  items: RunnerGate[];
  next_cursor: string | null;
}

// The worker's API (and on PGlite its database) starts in a hook, not inside the first test's time.
beforeAll(async () => {
  await testApi();
}, 60_000);

describe("the inbox", () => {
  it("pages oldest first with no skip when gates open between page reads, and filters", async () => {
    const owner = await seedTenant();
    const leased = await leasedFleet(owner);
    const other = await leasedFleet(owner);
    const first = await openMany(leased, 5);
    await openMany(other, 2, { gate_kind: "spend" });
    const path = `/v1/workspaces/${owner.workspaceId}/approvals`;
    const seen: string[] = [];
    let cursor: string | null = null;
    const later: string[] = [];
    for (let page = 0; page < 20; page++) {
      const query: string = cursor === null ? "?limit=2" : `?limit=2&cursor=${cursor}`;
      const read = await call<Page>("GET", `${path}${query}`, { token: owner.apiKey });
      expect(read.status, read.text).toBe(200);
      seen.push(...read.body.items.map((item) => item.gate_id));
      if (page < 2) later.push(...(await openMany(leased, 1)));
      cursor = read.body.next_cursor;
      if (cursor === null) break;
    }
    // Every gate opened before or during the reads, each once, in opening order.
    expect(new Set(seen).size).toBe(seen.length);
    for (const id of [...first, ...later]) expect(seen).toContain(id);
    expect(seen.length).toBe(5 + 2 + 2);

    const spend = await call<Page>("GET", `${path}?gate_kind=spend`, { token: owner.apiKey });
    expect(spend.body.items.map((item) => item.gate_kind)).toEqual(["spend", "spend"]);
    const byFleet = await call<Page>("GET", `${path}?fleet_id=${leased.fleetId}&limit=200`, {
      token: owner.apiKey,
    });
    expect(byFleet.body.items).toHaveLength(7);
    const item = byFleet.body.items[0]!;
    for (const field of [
      "gate_id",
      "fleet_id",
      "workspace_id",
      "action_id",
      "requested_at",
      "timeout_at",
      "updated_at",
      "fleet_name",
      "tool_name",
      "action_name",
      "gate_kind",
      "proposed_action",
      "blast_radius",
      "detail",
      "resolved_by",
      "evidence",
    ])
      expect(item).toHaveProperty(field);
    expect(item.fleet_name.length).toBeGreaterThan(0);

    // The API's cursor name elsewhere works too; both at once, or a retired parameter, is 400.
    const viaStartingAfter = await call<Page>("GET", `${path}?limit=1`, { token: owner.apiKey });
    const next = await call<Page>(
      "GET",
      `${path}?limit=1&starting_after=${viaStartingAfter.body.next_cursor}`,
      {
        token: owner.apiKey,
      },
    );
    expect(next.status).toBe(200);
    expect(next.body.items[0]!.gate_id).not.toBe(viaStartingAfter.body.items[0]!.gate_id);
    const both = await call(
      "GET",
      `${path}?cursor=${viaStartingAfter.body.next_cursor}&starting_after=${viaStartingAfter.body.next_cursor}`,
      { token: owner.apiKey },
    );
    expect(both.status).toBe(400);
    const retired = await call("GET", `${path}?page=2`, { token: owner.apiKey });
    expect(retired.status).toBe(400);
    const otherFilter = await call(
      "GET",
      `${path}?status=denied&cursor=${viaStartingAfter.body.next_cursor}`,
      { token: owner.apiKey },
    );
    expect(otherFilter.status).toBe(400);
    expect(await call("GET", `${path}?limit=201`, { token: owner.apiKey }).then((r) => r.status)).toBe(400);

    // Answered gates leave the pending list and show under their status.
    await answerGate(owner, first[0]!, "deny");
    const denied = await call<Page>("GET", `${path}?status=denied`, { token: owner.apiKey });
    expect(denied.body.items.map((g) => g.gate_id)).toEqual([first[0]]);
    const one = await call<RunnerGate>("GET", `${path}/${first[0]}`, { token: owner.apiKey });
    expect(one.body).toMatchObject({ status: "denied", resolved_by: expect.stringMatching(/^api_key:/) });
  });

  it("stops a page early at 1 MiB of gates, and its cursor serves the rest", {
    timeout: 60_000,
  }, async () => {
    const owner = await seedTenant();
    const leased = await leasedFleet(owner);
    // Twenty gates of ~60 KiB evidence each: about 1.2 MB, more than one page may hold.
    const ids = await openMany(leased, 20, { evidence: { log: "x".repeat(60 * 1024) } });
    const path = `/v1/workspaces/${owner.workspaceId}/approvals?limit=200`;
    const first = await call<Page>("GET", path, { token: owner.apiKey });
    expect(first.status, first.text.slice(0, 300)).toBe(200);
    expect(Buffer.byteLength(first.text)).toBeLessThanOrEqual(1024 * 1024 + 1024);
    expect(first.body.items.length).toBeGreaterThan(0);
    expect(first.body.items.length).toBeLessThan(20);
    expect(first.body.next_cursor).not.toBeNull();
    const rest = await call<Page>("GET", `${path}&cursor=${first.body.next_cursor}`, { token: owner.apiKey });
    expect(rest.status).toBe(200);
    expect(rest.body.next_cursor).toBeNull();
    expect([...first.body.items, ...rest.body.items].map((gate) => gate.gate_id)).toEqual(ids);
  });
});
