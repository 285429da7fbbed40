import type { OutputOf } from "@fleet/contracts";
import type { listWorkspaces } from "@fleet/contracts/workspaces/list-workspaces";
import { describe, expect, it } from "vitest";
import { call, seedTenant } from "./harness.ts";

type Page = OutputOf<typeof listWorkspaces>;

describe("workspaces", () => {
  it("creates workspaces with trimmed unique names and lists them newest first by cursor", async () => {
    const tenant = await seedTenant();
    const created = await call("POST", "/v1/workspaces", {
      token: tenant.apiKey,
      body: { name: "  Research  " },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: "Research",
      tenant_id: tenant.tenantId,
      request_id: created.headers.get("x-request-id"),
    });
    const duplicate = await call("POST", "/v1/workspaces", {
      token: tenant.apiKey,
      body: { name: "Research" },
    });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body).toMatchObject({ error_code: "UZ-WORKSPACE-001", current_state: "name_exists" });
    for (const bad of ["", "   ", "a".repeat(129), "bad\u0007name"]) {
      expect(
        (await call("POST", "/v1/workspaces", { token: tenant.apiKey, body: { name: bad } })).status,
      ).toBe(400);
    }
    const first = await call<Page>("GET", "/v1/tenants/me/workspaces?limit=1", { token: tenant.apiKey });
    expect(first.body).toMatchObject({ total: 2, tenant_id: tenant.tenantId });
    expect(first.body.items.map((w) => w.name)).toEqual(["Research"]);
    const second = await call<Page>(
      "GET",
      `/v1/tenants/me/workspaces?limit=1&starting_after=${first.body.next_cursor}`,
      { token: tenant.apiKey },
    );
    expect(second.body.items.map((w) => w.name)).toEqual(["default"]);
    expect(second.body.next_cursor).toBeNull();
    const byName = await call<Page>("GET", "/v1/tenants/me/workspaces?name=default", {
      token: tenant.apiKey,
    });
    expect(byName.body.items).toHaveLength(1);
  });

  it("gives exactly one 201 to concurrent creates of one name", async () => {
    const tenant = await seedTenant();
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        call("POST", "/v1/workspaces", { token: tenant.apiKey, body: { name: "Raced" } }),
      ),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(9);
  });

  it("never shows one tenant's workspaces to another", async () => {
    const mine = await seedTenant();
    const theirs = await seedTenant();
    await call("POST", "/v1/workspaces", { token: theirs.apiKey, body: { name: "Secret project" } });
    const list = await call("GET", "/v1/tenants/me/workspaces", { token: mine.apiKey });
    expect(JSON.stringify(list.body)).not.toContain("Secret project");
  });
});
