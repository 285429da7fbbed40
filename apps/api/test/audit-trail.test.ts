import { auditEvents, eq } from "@fleet/db";
import { describe, expect, it } from "vitest";
import { actionsOf } from "./audit-coverage-fixtures.ts";
import { installFleet } from "./fleet-fixtures.ts";
import { call, seedTenant, sessionFor, signInLink, testApi } from "./harness.ts";
import { API_KEY, catalogueRow } from "./provider-fixtures.ts";

/** The rows written under the request that answered `response`. */
async function rowsOf(response: { headers: Headers }) {
  const api = await testApi();
  return api.database.db
    .select()
    .from(auditEvents)
    .where(eq(auditEvents.requestId, response.headers.get("x-request-id")!));
}

describe("audit trail: what the newly audited acts record", () => {
  it("records a tenant provider change with whether a key was given, never the key", async () => {
    const tenant = await seedTenant();
    const model = (await catalogueRow("anthropic")).model_id;
    const path = "/v1/tenants/me/provider";
    const given = await call("PUT", path, {
      token: tenant.apiKey,
      body: { provider: "anthropic", api_key: API_KEY, model },
    });
    expect(given.status, given.text).toBe(200);
    const kept = await call("PUT", path, { token: tenant.apiKey, body: { provider: "anthropic", model } });
    expect(kept.status, kept.text).toBe(200);
    const [first] = await rowsOf(given);
    const [second] = await rowsOf(kept);
    expect(first).toMatchObject({ action: "provider.replace", tenantId: tenant.tenantId, workspaceId: null });
    expect(first!.details).toMatchObject({ provider: "anthropic", model, api_key: "replaced" });
    expect(second!.details).toMatchObject({ api_key: "kept" });
    expect(JSON.stringify([first, second])).not.toContain(API_KEY);
  });

  it("records a kill as fleet.kill with the move; a change to nothing and a refused move record nothing", async () => {
    const tenant = await seedTenant();
    const path = `/v1/workspaces/${tenant.workspaceId}/fleets/${await installFleet(tenant)}`;
    const same = await call("PATCH", path, { token: tenant.apiKey, body: { status: "active" } });
    expect(same.status, same.text).toBe(200);
    expect(await actionsOf(same)).toEqual([]);
    const killed = await call("PATCH", path, { token: tenant.apiKey, body: { status: "killed" } });
    expect(killed.status, killed.text).toBe(200);
    const [row] = await rowsOf(killed);
    expect(row).toMatchObject({ action: "fleet.kill", actor: expect.stringMatching(/^api_key:/) });
    expect(row!.details).toEqual({ status: { from: "active", to: "killed" } });
    const revived = await call("PATCH", path, { token: tenant.apiKey, body: { status: "active" } });
    expect(revived.status, revived.text).toBe(409);
    expect(await actionsOf(revived)).toEqual([]);
  });

  it("writes no row for a refused workspace create", async () => {
    const tenant = await seedTenant();
    const first = await call("POST", "/v1/workspaces", { token: tenant.apiKey, body: { name: "twice" } });
    expect(first.status, first.text).toBe(201);
    expect(await actionsOf(first)).toEqual(["workspace.create"]);
    const second = await call("POST", "/v1/workspaces", { token: tenant.apiKey, body: { name: "twice" } });
    expect(second.status, second.text).toBe(409);
    expect(await actionsOf(second)).toEqual([]);
  });

  it("records a sign-in link's exchange as the person's act, once; the spent link's second try records nothing", async () => {
    const tenant = await seedTenant();
    const token = await signInLink(tenant);
    const exchanged = await call("POST", "/v1/auth/sign-in-links/exchange", { body: { token } });
    expect(exchanged.status, exchanged.text).toBe(200);
    const [row] = await rowsOf(exchanged);
    expect(row).toMatchObject({
      action: "session.exchange_sign_in_link",
      actor: `user:${tenant.userId}`,
      target: `user:${tenant.userId}`,
      tenantId: tenant.tenantId,
    });
    expect(JSON.stringify(row)).not.toContain(token);
    expect(JSON.stringify(row)).not.toContain(String(exchanged.body.session_token));
    const again = await call("POST", "/v1/auth/sign-in-links/exchange", { body: { token } });
    expect(again.status).toBe(401);
    expect(await actionsOf(again)).toEqual([]);
  });

  it("records a command-line credential issued by fleetctl as the operator's act", async () => {
    const tenant = await seedTenant();
    const token = await sessionFor(tenant, "cli");
    const api = await testApi();
    const rows = await api.database.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.tenantId, tenant.tenantId));
    const issued = rows.filter((row) => row.action === "cli_credential.issue");
    expect(issued).toHaveLength(1);
    expect(issued[0]).toMatchObject({ actor: "operator:fleetctl", workspaceId: null });
    expect(issued[0]!.details).toMatchObject({ user_id: tenant.userId, client_name: "fleetctl session" });
    expect(JSON.stringify(issued)).not.toContain(token);
  });
});
