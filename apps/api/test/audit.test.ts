import type { OutputOf } from "@fleet/contracts";
import type { createApiKey } from "@fleet/contracts/api-keys/create-api-key";
import type { listWorkspaceAudit } from "@fleet/contracts/audit/list-workspace-audit";
import type { enrollRunner } from "@fleet/contracts/runners/enroll-runner";
import { auditEvents, eq, sql } from "@fleet/db";
import { describe, expect, it } from "vitest";
import { gateIn } from "./approval-fixtures.ts";
import {
  call,
  operatorToken,
  type Response,
  seedMember,
  seedTenant,
  sessionFor,
  type Tenant,
  testApi,
} from "./harness.ts";

type AuditPage = OutputOf<typeof listWorkspaceAudit>;
type AuditEvent = AuditPage["items"][number];

async function workspaceAudit(tenant: Tenant, query = ""): Promise<Response<AuditPage>> {
  return call<AuditPage>("GET", `/v1/workspaces/${tenant.workspaceId}/audit${query}`, {
    token: tenant.apiKey,
  });
}

async function tenantAudit(tenant: Tenant, query = ""): Promise<Response<AuditPage>> {
  return call<AuditPage>("GET", `/v1/tenants/me/audit${query}`, { token: tenant.apiKey });
}

/** The tenant's rows naming `target`, read through the tenant route. */
async function rowsFor(tenant: Tenant, target: string): Promise<AuditEvent[]> {
  const page = await tenantAudit(tenant, "?limit=200");
  expect(page.status, page.text).toBe(200);
  return page.body.items.filter((row) => row.target === target);
}

function expectOne(rows: AuditEvent[], actor: string, action: string, answer: Response<unknown>): AuditEvent {
  const matching = rows.filter((row) => row.action === action);
  expect(matching, `${action} rows`).toHaveLength(1);
  expect(matching[0]!.actor).toBe(actor);
  expect(matching[0]!.request_id).toBe(answer.headers.get("x-request-id"));
  return matching[0]!;
}

describe("audit log: what is recorded", () => {
  it("records API key mint, revoke and delete as tenant-level acts of the person, with the request id", async () => {
    const tenant = await seedTenant();
    const session = await sessionFor(tenant);
    const actor = `user:${tenant.userId}`;
    const minted = await call<OutputOf<typeof createApiKey>>("POST", "/v1/api-keys", {
      token: session,
      body: { key_name: "audited" },
    });
    expect(minted.status, minted.text).toBe(201);
    const target = `api_key:${minted.body.id}`;
    const mint = expectOne(await rowsFor(tenant, target), actor, "api_key.mint", minted);
    expect(mint.workspace_id).toBeNull();
    expect(mint.details).toEqual({ key_name: "audited", rate_limit: null, scopes: null, expires_at: null });
    expect(JSON.stringify(mint)).not.toContain(minted.body.key);

    // Deleting an active key is refused, and the refusal records nothing.
    const early = await call("DELETE", `/v1/api-keys/${minted.body.id}`, { token: session });
    expect(early.status, early.text).toBe(409);
    expect(await rowsFor(tenant, target)).toHaveLength(1);

    const revoked = await call("PATCH", `/v1/api-keys/${minted.body.id}`, {
      token: session,
      body: { active: false },
    });
    expect(revoked.status, revoked.text).toBe(200);
    const deleted = await call("DELETE", `/v1/api-keys/${minted.body.id}`, { token: session });
    expect(deleted.status, deleted.text).toBe(204);
    const rows = await rowsFor(tenant, target);
    expect(rows).toHaveLength(3);
    expectOne(rows, actor, "api_key.revoke", revoked);
    expectOne(rows, actor, "api_key.delete", deleted);
    // Tenant-level acts are not a workspace's.
    const workspace = await workspaceAudit(tenant);
    expect(workspace.body.items.filter((row) => row.target === target)).toHaveLength(0);
  });

  it("records secret create, replace and delete by name only; a refused create records nothing", async () => {
    const tenant = await seedTenant();
    const base = `/v1/workspaces/${tenant.workspaceId}/secrets`;
    const value = "s3cr3t-value-never-audited";
    const created = await call("POST", base, {
      token: tenant.apiKey,
      body: { name: "DEPLOY_TOKEN", data: { token: value } },
    });
    expect(created.status, created.text).toBe(201);
    const twice = await call("POST", base, {
      token: tenant.apiKey,
      body: { name: "DEPLOY_TOKEN", data: { token: value } },
    });
    expect(twice.status, twice.text).toBe(409);
    const replaced = await call("PUT", `${base}/DEPLOY_TOKEN`, {
      token: tenant.apiKey,
      body: { data: { token: `${value}-2` } },
    });
    expect(replaced.status, replaced.text).toBe(200);
    const missing = await call("DELETE", `${base}/NOT_THERE`, { token: tenant.apiKey });
    expect(missing.status, missing.text).toBe(404);
    const deleted = await call("DELETE", `${base}/DEPLOY_TOKEN`, { token: tenant.apiKey });
    expect(deleted.status, deleted.text).toBe(204);

    const page = await workspaceAudit(tenant);
    expect(page.status, page.text).toBe(200);
    expect(page.text).not.toContain(value);
    const rows = page.body.items.filter((row) => row.target === "secret:DEPLOY_TOKEN");
    expect(rows.map((row) => row.action)).toEqual(["secret.delete", "secret.replace", "secret.create"]);
    const actor = rows[0]!.actor;
    expect(actor).toMatch(/^api_key:[0-9a-f-]{36}$/);
    expectOne(rows, actor, "secret.create", created);
    expectOne(rows, actor, "secret.replace", replaced);
    expectOne(rows, actor, "secret.delete", deleted);
    for (const row of rows) expect(row.workspace_id).toBe(tenant.workspaceId);
    expect(page.body.items.some((row) => row.target === "secret:NOT_THERE")).toBe(false);
  });

  it("records an approval's answer once; the losing answer records nothing", async () => {
    const tenant = await seedTenant();
    const session = await sessionFor(tenant);
    const approveGate = await gateIn(tenant);
    const denyGate = await gateIn(tenant);
    const path = (gate: Record<string, string>, verb: string) =>
      `/v1/workspaces/${gate.workspace_id}/approvals/${gate.gate_id}/${verb}`;
    const approved = await call("POST", path(approveGate, "approve"), {
      token: session,
      body: { amended_action: "merge PR #42 after a rebase" },
    });
    expect(approved.status, approved.text).toBe(200);
    const late = await call("POST", path(approveGate, "deny"), { token: session, body: {} });
    expect(late.status, late.text).toBe(409);
    const denied = await call("POST", path(denyGate, "deny"), { token: session, body: { reason: "no" } });
    expect(denied.status, denied.text).toBe(200);

    const actor = `user:${tenant.userId}`;
    const page = await workspaceAudit(tenant, "?action=approval.*");
    expect(page.status, page.text).toBe(200);
    const forApproved = page.body.items.filter(
      (row) => row.target === `approval_gate:${approveGate.gate_id}`,
    );
    expect(forApproved).toHaveLength(1);
    expect(expectOne(forApproved, actor, "approval.approve", approved).details).toMatchObject({
      amended: true,
    });
    const forDenied = page.body.items.filter((row) => row.target === `approval_gate:${denyGate.gate_id}`);
    expect(forDenied).toHaveLength(1);
    expectOne(forDenied, actor, "approval.deny", denied);
  });

  it("records runner administration as operator-plane acts, on no tenant's route", async () => {
    const api = await testApi();
    const operator = await operatorToken(["runner:admin"]);
    const enrolled = await call<OutputOf<typeof enrollRunner>>("POST", "/v1/runners", {
      token: operator,
      body: { host_id: "audit-host", assigned_policy: { sandbox_tier: "landlock_full" }, labels: [] },
    });
    expect(enrolled.status, enrolled.text).toBe(201);
    const id = enrolled.body.runner_id;
    const cordoned = await call("PATCH", `/v1/fleets/runners/${id}`, {
      token: operator,
      body: { status: "cordoned" },
    });
    expect(cordoned.status, cordoned.text).toBe(200);
    const early = await call("DELETE", `/v1/fleets/runners/${id}`, { token: operator });
    expect(early.status, early.text).toBe(409);
    const revoked = await call("PATCH", `/v1/fleets/runners/${id}`, {
      token: operator,
      body: { status: "revoked" },
    });
    expect(revoked.status, revoked.text).toBe(200);
    const deleted = await call("DELETE", `/v1/fleets/runners/${id}`, { token: operator });
    expect(deleted.status, deleted.text).toBe(204);

    const rows = await api.database.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.target, `runner:${id}`))
      .orderBy(auditEvents.at, auditEvents.id);
    expect(rows.map((row) => [row.action, row.requestId])).toEqual([
      ["runner.enroll", enrolled.headers.get("x-request-id")],
      ["runner.update", cordoned.headers.get("x-request-id")],
      ["runner.update", revoked.headers.get("x-request-id")],
      ["runner.delete", deleted.headers.get("x-request-id")],
    ]);
    for (const row of rows) {
      expect(row.actor).toBe("operator:operator");
      expect(row.tenantId).toBeNull();
      expect(row.workspaceId).toBeNull();
    }
    expect(rows[0]!.details).not.toHaveProperty("runner_token");
    expect(JSON.stringify(rows)).not.toContain(enrolled.body.runner_token);
    expect(rows[2]!.details).toEqual({ status: { from: "cordoned", to: "revoked" } });
  });
});

describe("audit log: reading it", () => {
  async function tenantWithSecrets(count: number): Promise<Tenant> {
    const tenant = await seedTenant();
    for (let i = 0; i < count; i++) {
      const created = await call("POST", `/v1/workspaces/${tenant.workspaceId}/secrets`, {
        token: tenant.apiKey,
        body: { name: `S_${i}`, data: { v: i } },
      });
      expect(created.status, created.text).toBe(201);
    }
    return tenant;
  }

  it("pages newest first without gaps or repeats, and filters by actor, action and time", async () => {
    const tenant = await tenantWithSecrets(5);
    const session = await sessionFor(tenant);
    const minted = await call("POST", "/v1/api-keys", { token: session, body: { key_name: "k" } });
    expect(minted.status).toBe(201);

    const seen: AuditEvent[] = [];
    let cursor: string | null = null;
    do {
      const page: Response<AuditPage> = await workspaceAudit(
        tenant,
        `?limit=2${cursor ? `&starting_after=${cursor}` : ""}`,
      );
      expect(page.status, page.text).toBe(200);
      expect(page.body.items.length).toBeLessThanOrEqual(2);
      seen.push(...page.body.items);
      cursor = page.body.next_cursor;
    } while (cursor !== null);
    expect(seen.map((row) => row.target)).toEqual(
      ["S_4", "S_3", "S_2", "S_1", "S_0"].map((n) => `secret:${n}`),
    );
    const ordered = [...seen].sort((a, b) => b.at - a.at || (a.id < b.id ? 1 : -1));
    expect(seen).toEqual(ordered);

    // The tenant route holds the workspace's rows and the tenant-level ones.
    const all = await tenantAudit(tenant);
    expect(all.body.items.map((row) => row.action).sort()).toEqual([
      "api_key.mint",
      ...Array(5).fill("secret.create"),
    ]);
    const byActor = await tenantAudit(tenant, `?actor=user:${tenant.userId}`);
    expect(byActor.body.items.map((row) => row.action)).toEqual(["api_key.mint"]);
    const exact = await tenantAudit(tenant, "?action=secret.create");
    expect(exact.body.items).toHaveLength(5);
    const prefix = await tenantAudit(tenant, "?action=api_key.*");
    expect(prefix.body.items.map((row) => row.action)).toEqual(["api_key.mint"]);
    const none = await tenantAudit(tenant, "?action=secret");
    expect(none.body.items).toHaveLength(0);

    const middle = seen[2]!.at;
    const since = await workspaceAudit(tenant, `?since=${middle}`);
    expect(since.body.items.every((row) => row.at >= middle)).toBe(true);
    expect(since.body.items.length).toBe(seen.filter((row) => row.at >= middle).length);
    const until = await workspaceAudit(tenant, `?until=${middle}`);
    expect(until.body.items.length).toBe(seen.filter((row) => row.at <= middle).length);

    // A cursor is bound to its filters; bad filters are refused as bad input.
    const first = await workspaceAudit(tenant, "?limit=1");
    const moved = await workspaceAudit(
      tenant,
      `?limit=1&action=secret.create&starting_after=${first.body.next_cursor}`,
    );
    expect(moved.status).toBe(400);
    for (const query of ["?since=5&until=4", "?action=a%25b", "?limit=0", "?limit=201", "?since=soon"]) {
      const refused = await workspaceAudit(tenant, query);
      expect(refused.status, query).toBe(400);
      expect(refused.headers.get("content-type")).toContain("application/problem+json");
    }
    // Too long a filter is refused in the registry's words, naming its limit.
    for (const [field, max] of [
      ["actor", 200],
      ["action", 100],
    ] as const) {
      const long = await workspaceAudit(tenant, `?${field}=${"a".repeat(max + 1)}`);
      expect(long.status).toBe(400);
      expect((long.body as unknown as { detail: string }).detail).toBe(
        `${field} must be at most ${max} characters.`,
      );
    }
  });

  it("shows another tenant nothing: 404 for its workspace, none of its rows tenant-wide", async () => {
    const owner = await tenantWithSecrets(1);
    const stranger = await seedTenant("stranger");
    const foreign = await call("GET", `/v1/workspaces/${owner.workspaceId}/audit`, {
      token: stranger.apiKey,
    });
    expect(foreign.status).toBe(404);
    const theirs = await tenantAudit(stranger);
    expect(theirs.status).toBe(200);
    expect(theirs.body.items).toEqual([]);
  });

  it("needs workspace:admin", async () => {
    const tenant = await tenantWithSecrets(1);
    const member = await seedMember(tenant, ["approval:read", "secret:read"]);
    const refused = await call("GET", `/v1/workspaces/${tenant.workspaceId}/audit`, { token: member.token });
    expect(refused.status).toBe(403);
    expect((await call("GET", "/v1/tenants/me/audit", { token: member.token })).status).toBe(403);
  });
});

describe("audit log: append-only in the database", () => {
  it("refuses UPDATE, DELETE and TRUNCATE of audit rows", async () => {
    const api = await testApi();
    const tenant = await seedTenant();
    const created = await call("POST", `/v1/workspaces/${tenant.workspaceId}/secrets`, {
      token: tenant.apiKey,
      body: { name: "ONE", data: { v: 1 } },
    });
    expect(created.status).toBe(201);
    const db = api.database.db;
    await expect(
      db
        .update(auditEvents)
        .set({ actor: "user:someone-else" })
        .where(eq(auditEvents.tenantId, tenant.tenantId)),
    ).rejects.toThrow();
    await expect(db.delete(auditEvents).where(eq(auditEvents.tenantId, tenant.tenantId))).rejects.toThrow();
    await expect(db.execute(sql`truncate audit_events`)).rejects.toThrow();
    const page = await workspaceAudit(tenant);
    expect(page.body.items).toHaveLength(1);
    expect(page.body.items[0]!.actor).toMatch(/^api_key:/);
  });
});
