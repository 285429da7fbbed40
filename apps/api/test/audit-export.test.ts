import type { OutputOf } from "@fleet/contracts";
import type { listTenantAudit } from "@fleet/contracts/audit/list-tenant-audit";
import { auditEvents } from "@fleet/db";
import { describe, expect, it } from "vitest";
import { newId } from "../src/runtime/ids.ts";
import { EXPORT_BATCH } from "../src/services/audit/export-tenant-audit.ts";
import { call, seedMember, seedTenant, type Tenant, testApi } from "./harness.ts";

type AuditEvent = OutputOf<typeof listTenantAudit>["items"][number];
const DAY = 24 * 60 * 60 * 1000;

function exportOf(tenant: Tenant, query: string, token = tenant.apiKey) {
  return call("GET", `/v1/tenants/me/audit/export${query}`, { token });
}

function linesOf(text: string): AuditEvent[] {
  expect(text === "" || text.endsWith("\n")).toBe(true);
  return text
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as AuditEvent);
}

/** `count` rows of the tenant written straight to the log, one a millisecond from `start`. */
async function seedRows(tenant: Tenant, start: number, count: number) {
  const api = await testApi();
  const rows = Array.from({ length: count }, (_, i) => ({
    id: newId(start + i),
    tenantId: tenant.tenantId,
    workspaceId: i % 2 === 0 ? tenant.workspaceId : null,
    actor: `user:${tenant.userId}`,
    action: "secret.create",
    target: `secret:S_${i}`,
    requestId: newId(),
    at: start + i,
    details: { n: i },
  }));
  for (let i = 0; i < rows.length; i += 500)
    await api.database.db.insert(auditEvents).values(rows.slice(i, i + 500));
}

describe("audit export (NDJSON)", () => {
  it("streams the tenant's acts in the window, oldest first, one AuditEvent a line", async () => {
    const tenant = await seedTenant();
    const from = Date.now() - 1_000;
    for (const name of ["A", "B", "C"]) {
      const created = await call("POST", `/v1/workspaces/${tenant.workspaceId}/secrets`, {
        token: tenant.apiKey,
        body: { name, data: { v: name } },
        headers: { "x-request-id": `siem-${name}` },
      });
      expect(created.status, created.text).toBe(201);
    }
    const minted = await call("POST", "/v1/api-keys", { token: tenant.apiKey, body: { key_name: "late" } });
    expect(minted.status).toBe(201);
    const to = Date.now() + 1_000;

    const exported = await exportOf(tenant, `?from=${from}&to=${to}`);
    expect(exported.status, exported.text).toBe(200);
    expect(exported.headers.get("content-type")).toBe("application/x-ndjson; charset=utf-8");
    expect(exported.headers.get("cache-control")).toBe("no-store");
    const lines = linesOf(exported.text);
    expect(lines.map((line) => [line.action, line.target])).toEqual([
      ["secret.create", "secret:A"],
      ["secret.create", "secret:B"],
      ["secret.create", "secret:C"],
      ["api_key.mint", `api_key:${minted.body.id}`],
    ]);
    expect(lines[0]).toMatchObject({ workspace_id: tenant.workspaceId, client_request_id: "siem-A" });
    expect(lines[0]!.request_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(lines[3]).toMatchObject({ workspace_id: null, client_request_id: null });
    // The same rows as the list, in the opposite order.
    const listed = await call<OutputOf<typeof listTenantAudit>>(
      "GET",
      `/v1/tenants/me/audit?since=${from}&until=${to}`,
      { token: tenant.apiKey },
    );
    expect(listed.body.items.reverse()).toEqual(lines);

    // Inclusive bounds: a window of exactly one row's instant holds it.
    const one = linesOf((await exportOf(tenant, `?from=${lines[1]!.at}&to=${lines[1]!.at}`)).text);
    expect(one.map((line) => line.target)).toContain("secret:B");
  });

  it("streams a window larger than one read, in order, chunked rather than sized up front", async () => {
    const tenant = await seedTenant();
    const start = Date.now() - 10 * DAY;
    const count = EXPORT_BATCH * 2 + 37;
    await seedRows(tenant, start, count);
    const exported = await exportOf(tenant, `?from=${start}&to=${start + count}`);
    expect(exported.status, exported.text.slice(0, 300)).toBe(200);
    expect(exported.headers.get("transfer-encoding")).toBe("chunked");
    expect(exported.headers.get("content-length")).toBeNull();
    const lines = linesOf(exported.text);
    expect(lines).toHaveLength(count);
    expect(lines.map((line) => line.details.n)).toEqual(Array.from({ length: count }, (_, i) => i));
    const middle = linesOf((await exportOf(tenant, `?from=${start + 100}&to=${start + 199}`)).text);
    expect(middle.map((line) => line.details.n)).toEqual(Array.from({ length: 100 }, (_, i) => 100 + i));
  });

  it("shows another tenant nothing, and an empty window as an empty body", async () => {
    const owner = await seedTenant();
    const start = Date.now() - 3 * DAY;
    await seedRows(owner, start, 5);
    const stranger = await seedTenant("stranger");
    const theirs = await exportOf(stranger, `?from=${start}&to=${start + 10}`);
    expect(theirs.status, theirs.text).toBe(200);
    expect(theirs.text).toBe("");
    const ours = await exportOf(owner, `?from=${start}&to=${start + 10}`);
    expect(linesOf(ours.text)).toHaveLength(5);
  });

  it("refuses a bad window with 400 and a problem, before reading anything", async () => {
    const tenant = await seedTenant();
    const now = Date.now();
    for (const query of [
      "",
      `?from=${now}`,
      `?to=${now}`,
      `?from=${now}&to=${now - 1}`,
      `?from=${now - 32 * DAY}&to=${now}`,
      `?from=soon&to=${now}`,
      `?from=-5&to=${now}`,
      `?from=${now}&to=${now}&limit=5`,
    ]) {
      const refused = await exportOf(tenant, query);
      expect(refused.status, query).toBe(400);
      expect(refused.headers.get("content-type"), query).toContain("application/problem+json");
      expect(refused.body.error_code, query).toBe("UZ-REQ-001");
    }
    const widest = await exportOf(tenant, `?from=${now - 31 * DAY}&to=${now}`);
    expect(widest.status).toBe(200);
  });

  it("needs workspace:admin, and is not served over /trpc", async () => {
    const tenant = await seedTenant();
    const member = await seedMember(tenant, ["approval:read", "secret:read"]);
    const now = Date.now();
    const refused = await exportOf(tenant, `?from=${now - DAY}&to=${now}`, member.token);
    expect(refused.status).toBe(403);
    const api = await testApi();
    const input = encodeURIComponent(JSON.stringify({ from: now - DAY, to: now }));
    const trpc = await fetch(`${api.baseUrl}/trpc/audit.exportTenant?input=${input}`, {
      headers: { authorization: `Bearer ${tenant.apiKey}` },
    });
    expect(trpc.status).toBe(405);
  });
});
