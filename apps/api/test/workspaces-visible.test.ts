import type { OutputOf, ProblemBody } from "@fleet/contracts";
import type { createApiKey } from "@fleet/contracts/api-keys/create-api-key";
import type { listVisibleWorkspaces } from "@fleet/contracts/workspaces/list-visible-workspaces";
import { describe, expect, it } from "vitest";
import { call, seedMember, seedTenant, sessionFor, type TrpcRefusal, type TrpcResult } from "./harness.ts";

type Page = OutputOf<typeof listVisibleWorkspaces>;

/** An API key the tenant's owner mints with exactly these scopes. */
async function keyWith(apiKey: string, scopes: string[]): Promise<string> {
  const minted = await call<OutputOf<typeof createApiKey>>("POST", "/v1/api-keys", {
    token: apiKey,
    body: { key_name: `only ${scopes.join(" ")}`, scopes },
  });
  expect(minted.status, minted.text).toBe(201);
  return minted.body.key;
}

describe("GET /v1/workspaces: the workspaces any member may see", () => {
  it("answers a key holding only fleet:read, newest first, by cursor and by name; the admin's list stays admin's", async () => {
    const tenant = await seedTenant();
    await call("POST", "/v1/workspaces", { token: tenant.apiKey, body: { name: "Research" } });
    const key = await keyWith(tenant.apiKey, ["fleet:read"]);

    const first = await call<Page>("GET", "/v1/workspaces?limit=1", { token: key });
    expect(first.status, first.text).toBe(200);
    expect(first.body).toMatchObject({ total: 2, tenant_id: tenant.tenantId });
    expect(first.body.items.map((w) => w.name)).toEqual(["Research"]);
    const second = await call<Page>(
      "GET",
      `/v1/workspaces?limit=1&starting_after=${first.body.next_cursor}`,
      {
        token: key,
      },
    );
    expect(second.body.items.map((w) => w.id)).toEqual([tenant.workspaceId]);
    expect(second.body.next_cursor).toBeNull();
    const byName = await call<Page>("GET", "/v1/workspaces?name=default", { token: key });
    expect(byName.body.items.map((w) => w.id)).toEqual([tenant.workspaceId]);

    // The spec's scope table keeps the tenant list and the create with workspace:admin.
    const adminList = await call<ProblemBody>("GET", "/v1/tenants/me/workspaces", { token: key });
    expect(adminList.status).toBe(403);
    expect(adminList.body.detail).toContain("workspace:admin");
  });

  it("lets a console member without workspace:admin list, over /v1 and /trpc, and refuses them a create", async () => {
    const tenant = await seedTenant();
    const member = await seedMember(tenant, ["approval:read", "approval:resolve"]);
    const session = await sessionFor({ ...tenant, email: member.email });

    const listed = await call<Page>("GET", "/v1/workspaces", { token: session });
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.items.map((w) => w.id)).toEqual([tenant.workspaceId]);
    const overTrpc = await call<TrpcResult<Page>>(
      "GET",
      `/trpc/workspaces.listVisible?input=${encodeURIComponent(JSON.stringify({ limit: 100 }))}`,
      { token: session },
    );
    expect(overTrpc.status, overTrpc.text).toBe(200);
    expect(overTrpc.body.result.data.items.map((w) => w.id)).toEqual([tenant.workspaceId]);

    const created = await call<ProblemBody>("POST", "/v1/workspaces", {
      token: session,
      body: { name: "Mine" },
    });
    expect(created.status).toBe(403);
    expect(created.headers.get("content-type")).toContain("application/problem+json");
    expect(created.body).toMatchObject({ error_code: "UZ-AUTH-022" });
    expect(created.body.detail).toContain("workspace:admin");
    const overTrpcCreate = await call<TrpcRefusal>("POST", "/trpc/workspaces.create", {
      token: session,
      body: { name: "Mine" },
    });
    expect(overTrpcCreate.status).toBe(403);
    expect((await call<Page>("GET", "/v1/workspaces", { token: session })).body.total).toBe(1);
  });

  it("never shows another tenant's workspaces", async () => {
    const mine = await seedTenant();
    const theirs = await seedTenant();
    await call("POST", "/v1/workspaces", { token: theirs.apiKey, body: { name: "Their secret project" } });
    const member = await seedMember(mine, ["fleet:read"]);
    for (const token of [mine.apiKey, member.token]) {
      const listed = await call<Page>("GET", "/v1/workspaces?limit=100", { token });
      expect(listed.status).toBe(200);
      expect(listed.body.items.map((w) => w.id)).toEqual([mine.workspaceId]);
      expect(listed.text).not.toContain("Their secret project");
      expect(listed.text).not.toContain(theirs.workspaceId);
      const byName = await call<Page>(
        `GET`,
        `/v1/workspaces?name=${encodeURIComponent("Their secret project")}`,
        {
          token,
        },
      );
      expect(byName.body).toMatchObject({ items: [], total: 0 });
    }
  });

  it("refuses hostile query input with 400, never 500, and no credential with 401", async () => {
    const tenant = await seedTenant();
    const hostile = [
      "name=%00",
      `name=${"x".repeat(129)}`,
      `name=${"x".repeat(100_000).slice(0, 6000)}`,
      "limit=0",
      "limit=101",
      "limit=abc",
      "limit=1e3",
      "starting_after=not-a-cursor",
      "starting_after=%00",
      `starting_after=${"A".repeat(5000)}`,
      "unknown=1",
    ];
    for (const query of hostile) {
      const answer = await call<ProblemBody>("GET", `/v1/workspaces?${query}`, { token: tenant.apiKey });
      expect(answer.status, `${query.slice(0, 40)}: ${answer.text.slice(0, 200)}`).toBe(400);
      expect(answer.headers.get("content-type")).toContain("application/problem+json");
    }
    // Over /trpc the input is JSON: a lone surrogate, a NUL, an array or a string for the object.
    for (const input of [
      '{"name":"\\ud800"}',
      '{"name":"a\\u0000b"}',
      "[]",
      '"workspaces"',
      '{"limit":null}',
    ]) {
      const answer = await call("GET", `/trpc/workspaces.listVisible?input=${encodeURIComponent(input)}`, {
        token: tenant.apiKey,
      });
      expect(answer.status, `${input}: ${answer.text.slice(0, 200)}`).toBe(400);
    }
    expect((await call("GET", "/v1/workspaces")).status).toBe(401);
  });
});
