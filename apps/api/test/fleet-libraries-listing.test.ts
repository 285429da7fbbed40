import type { OutputOf } from "@fleet/contracts";
import type { listApiKeys } from "@fleet/contracts/api-keys/list-api-keys";
import { fleetLibraries, inArray } from "@fleet/db";
import { describe, expect, it } from "vitest";
import { newId } from "../src/runtime/ids.ts";
import {
  createEntry,
  definition,
  everything,
  type Item,
  list,
  newWorkspace,
} from "./fleet-library-fixtures.ts";
import { call, operatorToken, seedTenant, type Tenant, type TrpcRefusal, testApi } from "./harness.ts";

/** The list's order: created_at descending, then platform before tenant, then id descending. */
function inListOrder(a: Item, b: Item): boolean {
  if (a.created_at !== b.created_at) return a.created_at > b.created_at;
  if (a.visibility !== b.visibility) return a.visibility === "platform";
  return a.id > b.id;
}

describe("listing a workspace's library", () => {
  it("lists platform entries and the workspace's own, newest first, by cursor, never the instructions", async () => {
    const tenant = await seedTenant();
    const elsewhere = await newWorkspace(tenant);
    const operator = await operatorToken(["platform-library:write"]);
    const mine: string[] = [];
    for (const i of [1, 2]) {
      const created = await call<Item>("POST", "/v1/admin/fleet-libraries", {
        token: operator,
        body: { definition: definition(`name: Platform ${i}`, "SECRET-INSTRUCTIONS") },
      });
      mine.push(created.body.id);
    }
    for (const i of [1, 2, 3]) {
      mine.push(
        (await createEntry(tenant, { definition: definition(`name: Own ${i}`, "SECRET-INSTRUCTIONS") })).body
          .id,
      );
    }
    const foreign = (await createEntry(tenant, { definition: definition("name: Elsewhere") }, elsewhere)).body
      .id;

    const first = await list(tenant, "?limit=2");
    expect(first.status).toBe(200);
    expect(first.body.items).toHaveLength(2);
    expect(first.body.total).toBeGreaterThanOrEqual(5);
    expect(first.body.next_cursor).toEqual(expect.any(String));
    expect(first.text).not.toContain("SECRET-INSTRUCTIONS");
    expect(first.text).not.toContain("instructions");

    const items = await everything(tenant, 2);
    const ids = items.map((item) => item.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of mine) expect(ids).toContain(id);
    expect(ids).not.toContain(foreign);
    for (let i = 1; i < items.length; i++) expect(inListOrder(items[i - 1]!, items[i]!)).toBe(true);
    expect(items.filter((item) => item.visibility === "tenant").map((item) => item.id)).toEqual(
      [...mine.slice(2)].reverse(),
    );
    const defaults = await list(tenant);
    expect(defaults.body.items.length).toBeGreaterThanOrEqual(5);
    expect(defaults.body.items.length).toBeLessThanOrEqual(50);
  });

  it("orders entries of one millisecond platform first, then by id, across page boundaries", async () => {
    const tenant = await seedTenant();
    const other = await seedTenant();
    const api = await testApi();
    // Rows of one millisecond cannot be made over HTTP; written directly, far in the future so they lead.
    const at = 4_000_000_000_000 + Math.floor(Math.random() * 1_000_000);
    const row = (visibility: "platform" | "tenant", owner?: Tenant) => ({
      id: newId(),
      visibility,
      tenantId: owner?.tenantId ?? null,
      workspaceId: owner?.workspaceId ?? null,
      name: `tie ${visibility}`,
      description: "",
      instructions: "x",
      triggers: [],
      requirements: { credentials: [], tools: [], network_hosts: [], runner_labels: [] },
      credentialReasons: {},
      sourceRef: "upload:sha256:00",
      createdAt: at,
    });
    const rows = [
      row("tenant", tenant),
      row("platform"),
      row("tenant", tenant),
      row("platform"),
      row("tenant", other),
    ];
    await api.database.db.insert(fleetLibraries).values(rows);
    try {
      const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? 1 : -1);
      const expected = [
        ...rows.filter((r) => r.visibility === "platform").sort(byId),
        ...rows.filter((r) => r.tenantId === tenant.tenantId).sort(byId),
      ].map((r) => r.id);
      for (const limit of [1, 2, 3]) {
        const seen: string[] = [];
        let cursor: string | null = null;
        while (seen.length < 4) {
          const page: Awaited<ReturnType<typeof list>> = await list(
            tenant,
            `?limit=${limit}${cursor ? `&starting_after=${cursor}` : ""}`,
          );
          seen.push(...page.body.items.map((item) => item.id));
          cursor = page.body.next_cursor;
        }
        expect(seen.slice(0, 4), `limit ${limit}`).toEqual(expected);
      }
    } finally {
      await api.database.db.delete(fleetLibraries).where(
        inArray(
          fleetLibraries.id,
          rows.map((r) => r.id),
        ),
      );
    }
  });

  it("refuses cursors it never issued (UZ-LIBRARY-001), for another limit (002), and limits outside 1-100 (003)", async () => {
    const tenant = await seedTenant();
    for (const i of [1, 2, 3]) await createEntry(tenant, { definition: definition(`name: Paged ${i}`) });
    const cursor = (await list(tenant, "?limit=2")).body.next_cursor!;
    expect(cursor).toEqual(expect.any(String));
    expect((await list(tenant, `?limit=2&starting_after=${cursor}`)).status).toBe(200);

    await call("POST", "/v1/api-keys", { token: tenant.apiKey, body: { key_name: "second" } });
    const keyCursor = (
      await call<OutputOf<typeof listApiKeys>>("GET", "/v1/api-keys?limit=1", { token: tenant.apiKey })
    ).body.next_cursor!;
    const elsewhere = await newWorkspace(tenant);
    const forged = Buffer.from(
      JSON.stringify(["fleet-libraries", tenant.workspaceId, 2, 1, "nope", newId()]),
    ).toString("base64url");
    for (const [query, workspaceId] of [
      ["?starting_after=not-a-cursor", tenant.workspaceId],
      [`?starting_after=${"A".repeat(600)}`, tenant.workspaceId],
      [`?limit=1&starting_after=${keyCursor}`, tenant.workspaceId],
      [`?limit=2&starting_after=${forged}`, tenant.workspaceId],
      [`?limit=2&starting_after=${cursor}`, elsewhere],
    ] as const) {
      const response = await list(tenant, query, workspaceId);
      expect(response.status, query).toBe(400);
      expect(response.body.error_code, query).toBe("UZ-LIBRARY-001");
    }
    for (const query of [`?limit=3&starting_after=${cursor}`, `?starting_after=${cursor}`]) {
      const response = await list(tenant, query);
      expect(response.status, query).toBe(400);
      expect(response.body.error_code, query).toBe("UZ-LIBRARY-002");
      expect(response.body.detail).toContain("limit=2");
    }
    for (const limit of ["0", "101", "-1", "1.5", "abc", "1e2", "1000"]) {
      const response = await list(tenant, `?limit=${limit}`);
      expect(response.status, limit).toBe(400);
      expect(response.body.error_code, limit).toBe("UZ-LIBRARY-003");
    }
    for (const limit of ["1", "100"]) expect((await list(tenant, `?limit=${limit}`)).status).toBe(200);
    for (const retired of ["page=2", "page_size=10", "cursor=abc", "sort=name"]) {
      const response = await list(tenant, `?${retired}`);
      expect(response.status, retired).toBe(400);
      expect(response.body.error_code, retired).toBe("UZ-REQ-001");
    }
    // The console's transport reads limit the same way.
    const input = encodeURIComponent(JSON.stringify({ workspace_id: tenant.workspaceId, limit: 0 }));
    const trpc = await call<TrpcRefusal>("GET", `/trpc/fleetLibraries.list?input=${input}`, {
      token: tenant.apiKey,
    });
    expect(trpc.status).toBe(400);
    expect(trpc.body.error.data.problem.error_code).toBe("UZ-LIBRARY-003");
  });

  it("answers 500 UZ-LIBRARY-005 rather than a page over the 1 MiB body ceiling", async () => {
    const tenant = await seedTenant();
    const host = (i: number) =>
      `h${i}x${"a".repeat(56)}.${"b".repeat(61)}.${"c".repeat(61)}.${"d".repeat(61)}`;
    const large = (n: number) =>
      definition(
        [
          `name: Large ${n}`,
          `description: "${"d".repeat(1990)}"`,
          "requires:",
          "  credentials:",
          ...Array.from(
            { length: 32 },
            (_, i) => `    - {name: C${i}_${"x".repeat(190)}, reason: "${"r".repeat(490)}"}`,
          ),
          "  tools:",
          ...Array.from({ length: 64 }, (_, i) => `    - t${i}${"x".repeat(190)}`),
          "  network_hosts:",
          ...Array.from({ length: 64 }, (_, i) => `    - ${host(i)}`),
          "  runner_labels:",
          ...Array.from({ length: 32 }, (_, i) => `    - l${i}${"x".repeat(190)}`),
        ].join("\n"),
      );
    for (let batch = 0; batch < 4; batch++) {
      const created = await Promise.all(
        Array.from({ length: 5 }, (_, i) => createEntry(tenant, { definition: large(batch * 5 + i) })),
      );
      for (const response of created) expect(response.status, response.text.slice(0, 300)).toBe(201);
    }
    const tooLarge = await list(tenant, "?limit=100");
    expect(tooLarge.status).toBe(500);
    expect(tooLarge.body.error_code).toBe("UZ-LIBRARY-005");
    expect(tooLarge.body.detail).toMatch(/smaller limit/);
    const items = await everything(tenant, 10);
    expect(items.filter((item) => item.visibility === "tenant")).toHaveLength(20);
  });
});
