import type { OutputOf } from "@fleet/contracts";
import type { listWorkspaceAudit } from "@fleet/contracts/audit/list-workspace-audit";
import { describe, expect, it } from "vitest";
import { call, seedTenant, type Tenant } from "./harness.ts";

type AuditEvent = OutputOf<typeof listWorkspaceAudit>["items"][number];

async function createSecret(tenant: Tenant, name: string, clientId?: string) {
  const created = await call("POST", `/v1/workspaces/${tenant.workspaceId}/secrets`, {
    token: tenant.apiKey,
    body: { name, data: { v: 1 } },
    headers: clientId === undefined ? {} : { "x-request-id": clientId },
  });
  expect(created.status, created.text).toBe(201);
  return created;
}

async function rowFor(tenant: Tenant, name: string): Promise<AuditEvent> {
  const page = await call<OutputOf<typeof listWorkspaceAudit>>(
    "GET",
    `/v1/workspaces/${tenant.workspaceId}/audit?action=secret.create`,
    { token: tenant.apiKey },
  );
  expect(page.status, page.text).toBe(200);
  const rows = page.body.items.filter((row) => row.target === `secret:${name}`);
  expect(rows).toHaveLength(1);
  return rows[0]!;
}

describe("audit log: request ids", () => {
  it("records the server's own request id, with the caller's X-Request-Id beside it, never in its place", async () => {
    const tenant = await seedTenant();
    const created = await createSecret(tenant, "TRACED", "client-trace.42");
    const serverId = created.headers.get("x-request-id");
    expect(serverId).toMatch(/^[0-9a-f-]{36}$/);
    expect(serverId).not.toBe("client-trace.42");
    const row = await rowFor(tenant, "TRACED");
    expect(row.request_id).toBe(serverId);
    expect(row.client_request_id).toBe("client-trace.42");
  });

  it("cannot be given another request's id: two calls with one X-Request-Id get two server ids", async () => {
    const tenant = await seedTenant();
    const first = await createSecret(tenant, "FIRST", "replayed-id");
    const second = await createSecret(tenant, "SECOND", "replayed-id");
    const [a, b] = [await rowFor(tenant, "FIRST"), await rowFor(tenant, "SECOND")];
    expect(a.request_id).toBe(first.headers.get("x-request-id"));
    expect(b.request_id).toBe(second.headers.get("x-request-id"));
    expect(a.request_id).not.toBe(b.request_id);
    expect([a.client_request_id, b.client_request_id]).toEqual(["replayed-id", "replayed-id"]);
  });

  it.each([
    ["none sent", undefined],
    ["a control character", "tab\there"],
    ["spaces", "two words"],
    ["over 128 characters", "x".repeat(129)],
  ])("keeps no client request id for %s, and still records the change", async (_, sent) => {
    const tenant = await seedTenant();
    const created = await createSecret(tenant, "PLAIN", sent);
    const row = await rowFor(tenant, "PLAIN");
    expect(row.request_id).toBe(created.headers.get("x-request-id"));
    expect(row.client_request_id).toBeNull();
  });

  it("keeps a client request id of exactly 128 characters", async () => {
    const tenant = await seedTenant();
    const sent = `a.b:c-${"z".repeat(122)}`;
    await createSecret(tenant, "LONG", sent);
    expect((await rowFor(tenant, "LONG")).client_request_id).toBe(sent);
  });
});
