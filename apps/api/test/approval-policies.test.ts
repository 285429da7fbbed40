import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { approvalGates, approvalVotes, auditEvents, eq } from "@fleet/db";
import { beforeAll, describe, expect, it } from "vitest";
import { escalateDueGates } from "../src/services/approvals/escalate.ts";
import { sweepOverdueGates } from "../src/services/approvals/sweep.ts";
import { verify } from "../src/services/webhooks/signature.ts";
import { type LeasedFleet, leasedFleet, openGate, type RunnerGate } from "./approval-fixtures.ts";
import {
  call,
  databaseKind,
  seedMember,
  seedTenant,
  sessionFor,
  type Tenant,
  testApi,
  useIsolatedApi,
} from "./harness.ts";

type Body = Record<string, unknown>;
type Person = { userId: string; token: string };

const RESOLVER = ["approval:resolve", "approval:read"];

function policyPath(owner: Tenant) {
  return `/v1/workspaces/${owner.workspaceId}/approval-policy`;
}

function putPolicy(owner: Tenant, body: unknown, token = owner.apiKey) {
  return call<Body>("PUT", policyPath(owner), { token, body });
}

function answer(owner: Tenant, token: string, gateId: string, verb: string, body: Body = {}) {
  return call<Body>("POST", `/v1/workspaces/${owner.workspaceId}/approvals/${gateId}/${verb}`, {
    token,
    body,
  });
}

function readGate(owner: Tenant, gateId: string) {
  return call<RunnerGate & Body>("GET", `/v1/workspaces/${owner.workspaceId}/approvals/${gateId}`, {
    token: owner.apiKey,
  });
}

async function people(owner: Tenant, count: number): Promise<Person[]> {
  return Promise.all(Array.from({ length: count }, () => seedMember(owner, RESOLVER)));
}

async function opened(leased: LeasedFleet, extra: Body = {}): Promise<RunnerGate> {
  const gate = await openGate(leased, extra);
  expect(gate.status, gate.text).toBe(201);
  return gate.body;
}

async function auditActions(gateOrTarget: string): Promise<string[]> {
  const api = await testApi();
  const rows = await api.database.db
    .select()
    .from(auditEvents)
    .where(eq(auditEvents.target, gateOrTarget))
    .orderBy(auditEvents.at, auditEvents.id);
  return rows.map((row) => row.action);
}

// The worker's API starts (and, on PGlite, migrates) in a hook, not inside the first test's time.
beforeAll(async () => {
  await testApi();
}, 60_000);

describe("the policy resource", () => {
  it("reads the default until set, replaces it whole, and audits the change", async () => {
    const owner = await seedTenant();
    const fresh = await call<Body>("GET", policyPath(owner), { token: owner.apiKey });
    expect(fresh.status, fresh.text).toBe(200);
    expect(fresh.body).toEqual({
      workspace_id: owner.workspaceId,
      rules: [],
      escalation_webhook_url: null,
      updated_at: null,
      updated_by: null,
    });
    const [approver] = await people(owner, 1);
    const rules = [
      { name: "spend", match: { gate_kinds: ["spend"] }, approvers: [approver!.userId, owner.userId] },
      { name: "everything else", match: {}, timeout_ms: 60_000, max_extension_ms: 0 },
    ];
    const put = await putPolicy(owner, {
      rules,
      escalation_webhook_url: "https://1.1.1.1/hooks/approvals",
    });
    expect(put.status, put.text).toBe(200);
    expect(put.body).toMatchObject({
      rules: [
        { ...rules[0], required_approvals: 1 },
        { ...rules[1], required_approvals: 1 },
      ],
      escalation_webhook_url: "https://1.1.1.1/hooks/approvals",
      updated_by: expect.stringMatching(/^api_key:/),
    });
    const read = await call<Body>("GET", policyPath(owner), { token: owner.apiKey });
    expect(read.body).toEqual(put.body);
    // Whole replacement: the earlier rules are gone.
    const cleared = await putPolicy(owner, { rules: [], escalation_webhook_url: null });
    expect(cleared.body).toMatchObject({ rules: [], escalation_webhook_url: null });
    expect(await auditActions(`approval_policy:${owner.workspaceId}`)).toEqual([
      "approval_policy.replace",
      "approval_policy.replace",
    ]);
  });

  it("needs workspace:admin, and another tenant's workspace is absent", async () => {
    const owner = await seedTenant();
    const stranger = await seedTenant();
    const [resolver] = await people(owner, 1);
    const denied = await putPolicy(owner, { rules: [], escalation_webhook_url: null }, resolver!.token);
    expect(denied.status).toBe(403);
    const theirs = await putPolicy(owner, { rules: [], escalation_webhook_url: null }, stranger.apiKey);
    expect(theirs.status).toBe(404);
  });

  it("refuses what it cannot hold, with 400 and a registry code", async () => {
    const owner = await seedTenant();
    const stranger = await seedTenant();
    const [one] = await people(owner, 1);
    const rule = (extra: Body = {}) => ({ name: "r", match: {}, ...extra });
    const cases: [unknown, string][] = [
      [{ rules: [] }, "UZ-REQ-001"], // escalation_webhook_url is required (null for none)
      [{ rules: [], escalation_webhook_url: null, extra: 1 }, "UZ-REQ-001"],
      [{ rules: [rule({ colour: "red" })], escalation_webhook_url: null }, "UZ-REQ-001"],
      [{ rules: [rule({ match: { gate_kind: ["x"] } })], escalation_webhook_url: null }, "UZ-REQ-001"],
      [{ rules: [rule({ required_approvals: 11 })], escalation_webhook_url: null }, "UZ-REQ-001"],
      [{ rules: [rule({ required_approvals: 0 })], escalation_webhook_url: null }, "UZ-REQ-001"],
      [{ rules: [rule({ timeout_ms: 999 })], escalation_webhook_url: null }, "UZ-REQ-001"],
      [{ rules: [rule({ timeout_ms: 86_400_001 })], escalation_webhook_url: null }, "UZ-REQ-001"],
      [{ rules: [rule({ escalate_at_fraction: 1 })], escalation_webhook_url: null }, "UZ-REQ-001"],
      [{ rules: [rule({ approvers: ["not-a-user"] })], escalation_webhook_url: null }, "UZ-REQ-001"],
      [
        { rules: [rule({ approvers: [one!.userId, one!.userId] })], escalation_webhook_url: null },
        "UZ-REQ-001",
      ],
      [{ rules: [rule({ name: "bad\u0000name" })], escalation_webhook_url: null }, "UZ-REQ-001"],
      [{ rules: null, escalation_webhook_url: null }, "UZ-REQ-001"],
      [
        {
          rules: Array.from({ length: 101 }, (_, i) => rule({ name: `r${i}` })),
          escalation_webhook_url: null,
        },
        "UZ-REQ-001",
      ],
      [{ rules: [rule(), rule()], escalation_webhook_url: null }, "UZ-APPROVAL-002"],
      [
        { rules: [rule({ approvers: [one!.userId], required_approvals: 2 })], escalation_webhook_url: null },
        "UZ-APPROVAL-002",
      ],
      [
        { rules: [rule({ escalation_approvers: [one!.userId] })], escalation_webhook_url: null },
        "UZ-APPROVAL-002",
      ],
      [{ rules: [rule({ approvers: [stranger.userId] })], escalation_webhook_url: null }, "UZ-APPROVAL-002"],
      [{ rules: [], escalation_webhook_url: "http://1.1.1.1/hook" }, "UZ-APPROVAL-002"],
      [{ rules: [], escalation_webhook_url: "https://127.0.0.1/hook" }, "UZ-APPROVAL-002"],
      [{ rules: [], escalation_webhook_url: "https://169.254.169.254/latest" }, "UZ-APPROVAL-002"],
      [{ rules: [], escalation_webhook_url: "https://localhost/hook" }, "UZ-APPROVAL-002"],
      [{ rules: [], escalation_webhook_url: "https://user:pw@1.1.1.1/hook" }, "UZ-APPROVAL-002"],
      [{ rules: [], escalation_webhook_url: "not a url" }, "UZ-APPROVAL-002"],
    ];
    for (const [body, code] of cases) {
      const put = await putPolicy(owner, body);
      expect(put.status, `${JSON.stringify(body).slice(0, 200)} → ${put.text}`).toBe(400);
      expect(put.body.error_code, JSON.stringify(body).slice(0, 200)).toBe(code);
    }
    // Nothing was stored by any refusal.
    const untouched = await call<Body>("GET", policyPath(owner), { token: owner.apiKey });
    expect(untouched.body.updated_at).toBeNull();
    const huge = await call("PUT", policyPath(owner), {
      token: owner.apiKey,
      rawBody: JSON.stringify({
        rules: [rule({ detail: "x".repeat(300_000) })],
        escalation_webhook_url: null,
      }),
      headers: { "content-type": "application/json" },
    });
    expect(huge.status).toBe(413);
    // The most rules a policy holds, over the 64 KiB default body, are accepted.
    const most = Array.from({ length: 100 }, (_, i) =>
      rule({ name: `r${i}`, match: { blast_radius: [`radius ${i} ${"x".repeat(1_000)}`] } }),
    );
    const full = await putPolicy(owner, { rules: most, escalation_webhook_url: null });
    expect(full.status, full.text.slice(0, 300)).toBe(200);
    expect((full.body.rules as unknown[]).length).toBe(100);
    await putPolicy(owner, { rules: [], escalation_webhook_url: null });
    // No refusal stored anything: the policy is the one set last.
    const read = await call<Body>("GET", policyPath(owner), { token: owner.apiKey });
    expect(read.body.rules).toEqual([]);
  });
});

describe("rules copied onto gates", () => {
  it("applies the first matching rule and keeps it when the policy changes", async () => {
    const owner = await seedTenant();
    const [approver] = await people(owner, 1);
    const put = await putPolicy(owner, {
      rules: [
        { name: "spend", match: { gate_kinds: ["spend", "refund"] }, required_approvals: 2 },
        {
          name: "main branch",
          match: { blast_radius: ["one repository, main branch"] },
          approvers: [approver!.userId],
          timeout_ms: 120_000,
        },
        { name: "narrow and broad", match: { gate_kinds: ["deploy"], blast_radius: ["production"] } },
      ],
      escalation_webhook_url: null,
    });
    expect(put.status, put.text).toBe(200);
    const leased = await leasedFleet(owner);
    const spend = await opened(leased, { gate_kind: "spend" });
    expect(spend).toMatchObject({ rule: "spend", required_approvals: 2, approvals: [] });
    expect(spend.timeout_at - spend.requested_at).toBe(3_600_000); // the runner's default
    const repair = await opened(leased, { timeout_ms: 5_000 });
    expect(repair).toMatchObject({ rule: "main branch", required_approvals: 1 });
    expect(repair.timeout_at - repair.requested_at).toBe(120_000); // the rule's timeout wins
    const deploy = await opened(leased, { gate_kind: "deploy", blast_radius: "staging" });
    expect(deploy).toMatchObject({ rule: null, required_approvals: 1 }); // both lists must hold
    const production = await opened(leased, { gate_kind: "deploy", blast_radius: "production" });
    expect(production.rule).toBe("narrow and broad");

    await putPolicy(owner, { rules: [], escalation_webhook_url: null });
    const inbox = await call<{ items: (RunnerGate & Body)[] }>(
      "GET",
      `/v1/workspaces/${owner.workspaceId}/approvals`,
      { token: owner.apiKey },
    );
    const byId = new Map(inbox.body.items.map((item) => [item.gate_id, item]));
    expect(byId.get(spend.gate_id)).toMatchObject({ rule: "spend", required_approvals: 2 });
    // The policy change never touches a pending gate: the spend gate still takes two people.
    const first = await answer(owner, owner.apiKey, spend.gate_id, "approve");
    expect(first.body).toMatchObject({ outcome: "pending", resolved_at: null, resolved_by: null });
    // A gate opened now reads the new (default) policy.
    expect((await opened(leased, { gate_kind: "spend" })).rule).toBeNull();
  });

  it("refuses an approver the rule does not name with 403 naming the rule", async () => {
    const owner = await seedTenant();
    const [named, other] = await people(owner, 2);
    await putPolicy(owner, {
      rules: [{ name: "named only", match: {}, approvers: [named!.userId] }],
      escalation_webhook_url: null,
    });
    const gate = await opened(await leasedFleet(owner));
    for (const verb of ["approve", "deny"]) {
      const refused = await answer(owner, other!.token, gate.gate_id, verb);
      expect(refused.status, refused.text).toBe(403);
      expect(refused.body).toMatchObject({ error_code: "UZ-APPROVAL-004", rule: "named only" });
      expect(refused.body.detail).toContain('"named only"');
    }
    // The owner holds every scope but is not named either; their API key answers as them.
    const owners = await answer(owner, owner.apiKey, gate.gate_id, "approve");
    expect(owners.status).toBe(403);
    const ok = await answer(owner, named!.token, gate.gate_id, "approve", { reason: "fine" });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body).toMatchObject({ outcome: "approved", resolved_by: `user:${named!.userId}` });
    expect(await auditActions(`approval_gate:${gate.gate_id}`)).toEqual(["approval.approve"]);
  });
});

describe("M-of-N quorum", () => {
  async function twoOfThree(owner: Tenant) {
    const trio = await people(owner, 3);
    const put = await putPolicy(owner, {
      rules: [
        {
          name: "two of three",
          match: { gate_kinds: ["spend"] },
          approvers: trio.map((p) => p.userId),
          required_approvals: 2,
        },
      ],
      escalation_webhook_url: null,
    });
    expect(put.status, put.text).toBe(200);
    return trio;
  }

  it("decides on the second distinct approval, never counting one person twice", async () => {
    const owner = await seedTenant();
    const [a, b] = await twoOfThree(owner);
    const leased = await leasedFleet(owner);
    const gate = await opened(leased, { gate_kind: "spend" });
    const first = await answer(owner, a!.token, gate.gate_id, "approve", { reason: "ok by me" });
    expect(first.status, first.text).toBe(200);
    expect(first.body).toMatchObject({
      outcome: "pending",
      resolved_at: null,
      resolved_by: null,
      required_approvals: 2,
      approvals: [{ by: `user:${a!.userId}`, user_id: a!.userId }],
    });
    const again = await answer(owner, a!.token, gate.gate_id, "approve");
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ error_code: "UZ-APPROVAL-008", approvals: [{ user_id: a!.userId }] });
    const pending = await readGate(owner, gate.gate_id);
    expect(pending.body).toMatchObject({ status: "pending", approvals: [{ user_id: a!.userId }] });
    const amended = await answer(owner, b!.token, gate.gate_id, "approve", { amended_action: "less" });
    expect(amended.status).toBe(400);
    expect(amended.body.error_code).toBe("UZ-APPROVAL-002");
    const second = await answer(owner, b!.token, gate.gate_id, "approve");
    expect(second.status, second.text).toBe(200);
    expect(second.body).toMatchObject({
      outcome: "approved",
      resolved_by: `user:${b!.userId}`,
      approvals: [{ user_id: a!.userId }, { user_id: b!.userId }],
    });
    const runner = await call<RunnerGate>(
      "GET",
      `/v1/runners/me/leases/${leased.lease.lease_id}/gates/${gate.gate_id}`,
      { token: leased.runner.token },
    );
    expect(runner.body).toMatchObject({ outcome: "approved", approved_action: gate.proposed_action });
    expect(runner.body.approvals).toHaveLength(2);
    expect(await auditActions(`approval_gate:${gate.gate_id}`)).toEqual([
      "approval.approve",
      "approval.approve",
    ]);
  });

  it("an API key counts as the person who created it", async () => {
    const owner = await seedTenant();
    const other = await seedMember(owner, RESOLVER);
    await putPolicy(owner, {
      rules: [{ name: "pair", match: {}, required_approvals: 2 }],
      escalation_webhook_url: null,
    });
    const gate = await opened(await leasedFleet(owner));
    const byKey = await answer(owner, owner.apiKey, gate.gate_id, "approve");
    expect(byKey.body).toMatchObject({ outcome: "pending", approvals: [{ user_id: owner.userId }] });
    expect((byKey.body.approvals as Body[])[0]!.by).toMatch(/^api_key:/);
    const ownerSession = await sessionFor(owner, "cli");
    const bySession = await answer(owner, ownerSession, gate.gate_id, "approve");
    expect(bySession.status, bySession.text).toBe(409);
    expect(bySession.body.error_code).toBe("UZ-APPROVAL-008");
    const decided = await answer(owner, other.token, gate.gate_id, "approve");
    expect(decided.body).toMatchObject({ outcome: "approved" });
  });

  it("any denial decides, even after approvals", async () => {
    const owner = await seedTenant();
    const [a, b, c] = await twoOfThree(owner);
    const gate = await opened(await leasedFleet(owner), { gate_kind: "spend" });
    expect((await answer(owner, a!.token, gate.gate_id, "approve")).body.outcome).toBe("pending");
    const denied = await answer(owner, b!.token, gate.gate_id, "deny", { reason: "too much" });
    expect(denied.status, denied.text).toBe(200);
    expect(denied.body).toMatchObject({ outcome: "denied", resolved_by: `user:${b!.userId}` });
    const late = await answer(owner, c!.token, gate.gate_id, "approve");
    expect(late.status).toBe(409);
    expect(late.body).toMatchObject({ error_code: "UZ-APPROVAL-006", outcome: "denied" });
    const row = await readGate(owner, gate.gate_id);
    expect(row.body).toMatchObject({ status: "denied", reason: "too much" });
  });

  // PGlite runs one statement at a time; PostgreSQL takes the full count.
  const gates = databaseKind === "postgres" ? 10 : 3;
  it(`${gates} gates: 3 people × 5 concurrent approvals each decide exactly once`, {
    timeout: 120_000,
  }, async () => {
    const owner = await seedTenant();
    const trio = await twoOfThree(owner);
    const leased = await leasedFleet(owner);
    const ids: string[] = [];
    for (let i = 0; i < gates; i++) ids.push((await opened(leased, { gate_kind: "spend" })).gate_id);
    const api = await testApi();
    for (const gateId of ids) {
      const answers = await Promise.all(
        trio.flatMap((person) =>
          Array.from({ length: 5 }, () => answer(owner, person.token, gateId, "approve")),
        ),
      );
      const summary = answers.map((r) => `${r.status} ${r.body.outcome ?? r.body.error_code}`).join(", ");
      const approved = answers.filter((r) => r.status === 200 && r.body.outcome === "approved");
      const pending = answers.filter((r) => r.status === 200 && r.body.outcome === "pending");
      expect(approved, summary).toHaveLength(1);
      expect(pending, summary).toHaveLength(1);
      for (const refused of answers.filter((r) => r.status !== 200)) {
        expect(refused.status, summary).toBe(409);
        expect(["UZ-APPROVAL-006", "UZ-APPROVAL-008"]).toContain(refused.body.error_code);
        if (refused.body.error_code === "UZ-APPROVAL-006") {
          expect(refused.body).toMatchObject({
            outcome: "approved",
            resolved_by: approved[0]!.body.resolved_by,
          });
        }
      }
      const votes = await api.database.db
        .select()
        .from(approvalVotes)
        .where(eq(approvalVotes.gateId, gateId));
      expect(votes).toHaveLength(2);
      expect(new Set(votes.map((v) => v.voterId)).size).toBe(2);
      const [row] = await api.database.db.select().from(approvalGates).where(eq(approvalGates.id, gateId));
      expect(row!.status).toBe("approved");
      expect((approved[0]!.body.approvals as Body[]).map((a) => a.user_id).sort()).toEqual(
        votes.map((v) => v.voterId).sort(),
      );
    }
  });
});

describe("extending a gate", () => {
  it("extends once within the rule's maximum, wakes the waiting runner, and audits it", async () => {
    const owner = await seedTenant();
    const [named, other] = await people(owner, 2);
    await putPolicy(owner, {
      rules: [{ name: "short leash", match: {}, approvers: [named!.userId], max_extension_ms: 600_000 }],
      escalation_webhook_url: null,
    });
    const leased = await leasedFleet(owner);
    const gate = await opened(leased);
    const path = `/v1/workspaces/${owner.workspaceId}/approvals/${gate.gate_id}/extend`;
    const extend = (token: string, body: unknown) => call<Body>("POST", path, { token, body });

    expect((await extend(named!.token, { extend_ms: 60_000 })).status).toBe(400); // reason required
    expect((await extend(named!.token, { extend_ms: 60_000, reason: "  " })).status).toBe(400);
    const notNamed = await extend(other!.token, { extend_ms: 60_000, reason: "please" });
    expect(notNamed.status).toBe(403);
    expect(notNamed.body).toMatchObject({ error_code: "UZ-APPROVAL-004", rule: "short leash" });
    const tooLong = await extend(named!.token, { extend_ms: 600_001, reason: "longer" });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error_code).toBe("UZ-APPROVAL-002");

    const waiting = call<RunnerGate>(
      "GET",
      `/v1/runners/me/leases/${leased.lease.lease_id}/gates/${gate.gate_id}?wait_ms=20000`,
      { token: leased.runner.token },
    ).then((r) => ({ r, at: Date.now() }));
    await new Promise((resolve) => setTimeout(resolve, 300));
    const started = Date.now();
    const ok = await extend(named!.token, { extend_ms: 600_000, reason: "owner is on a plane" });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body).toMatchObject({
      status: "pending",
      timeout_at: gate.timeout_at + 600_000,
      extended_by: `user:${named!.userId}`,
      extension_reason: "owner is on a plane",
    });
    expect(ok.body.extended_at).toBeTypeOf("number");
    const { r: woken, at } = await waiting;
    expect(woken.body).toMatchObject({ status: "pending", timeout_at: gate.timeout_at + 600_000 });
    expect(at - started).toBeLessThan(5_000);

    const twice = await extend(named!.token, { extend_ms: 1_000, reason: "again" });
    expect(twice.status).toBe(409);
    expect(twice.body.error_code).toBe("UZ-APPROVAL-007");
    expect(await auditActions(`approval_gate:${gate.gate_id}`)).toEqual(["approval.extend"]);

    expect((await answer(owner, named!.token, gate.gate_id, "deny")).status).toBe(200);
    const closed = await extend(named!.token, { extend_ms: 1_000, reason: "too late" });
    expect(closed.status).toBe(409);
    expect(closed.body).toMatchObject({ error_code: "UZ-APPROVAL-006", outcome: "denied" });
  });

  it("never moves a deadline past 24 h after the request, and a rule may forbid extensions", async () => {
    const owner = await seedTenant();
    await putPolicy(owner, {
      rules: [
        { name: "none", match: { gate_kinds: ["spend"] }, max_extension_ms: 0 },
        { name: "long", match: {}, timeout_ms: 86_000_000, max_extension_ms: 3_600_000 },
      ],
      escalation_webhook_url: null,
    });
    const leased = await leasedFleet(owner);
    const long = await opened(leased);
    const spend = await opened(leased, { gate_kind: "spend" });
    const extend = (gateId: string, extendMs: number) =>
      call<Body>("POST", `/v1/workspaces/${owner.workspaceId}/approvals/${gateId}/extend`, {
        token: owner.apiKey,
        body: { extend_ms: extendMs, reason: "why not" },
      });
    const past = await extend(long.gate_id, 1_000_000);
    expect(past.status).toBe(400);
    expect(past.body.error_code).toBe("UZ-APPROVAL-002");
    expect((await extend(long.gate_id, 400_000)).status).toBe(200);
    expect((await extend(spend.gate_id, 1_000)).body.error_code).toBe("UZ-APPROVAL-002");
  });
});

/** A local receiver of escalation webhooks: every call's headers and raw body. */
async function receiver(answerStatus = 200) {
  const calls: { headers: IncomingHttpHeaders; body: string; at: number }[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      calls.push({ headers: request.headers, body: Buffer.concat(chunks).toString("utf8"), at: Date.now() });
      response.writeHead(answerStatus).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/escalations?team=ops`,
    calls,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function until<T>(read: () => T | undefined, ms: number): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`nothing within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("escalation (dev mode, so the webhook may be a local receiver)", () => {
  useIsolatedApi({ FLEET_DEV_MODE: "true" });

  async function escalatingWorkspace(url: string) {
    const owner = await seedTenant();
    const [first, backup] = await people(owner, 2);
    const minted = await call<{ secret: string }>(
      "POST",
      `/v1/workspaces/${owner.workspaceId}/webhook-secret`,
      { token: owner.apiKey },
    );
    expect(minted.status, minted.text).toBe(201);
    const put = await putPolicy(owner, {
      rules: [
        {
          name: "escalating",
          match: {},
          approvers: [first!.userId],
          timeout_ms: 8_000,
          escalate_at_fraction: 0.25,
          escalation_approvers: [backup!.userId],
        },
      ],
      escalation_webhook_url: url,
    });
    expect(put.status, put.text).toBe(200);
    return { owner, first: first!, backup: backup!, secret: minted.body.secret };
  }

  it("the sweeper marks a due gate once and sends a verifiable signed webhook; escalation widens who may answer", {
    timeout: 60_000,
  }, async () => {
    const hook = await receiver();
    try {
      const { owner, backup, secret } = await escalatingWorkspace(hook.url);
      const gate = await opened(await leasedFleet(owner));
      expect(gate.escalated_at).toBeNull();
      const early = await answer(owner, backup.token, gate.gate_id, "approve");
      expect(early.status).toBe(403);
      expect(early.body.rule).toBe("escalating");

      const escalateAt = gate.requested_at + 2_000;
      const received = await until(() => hook.calls[0], 10_000);
      // The sweeper runs every 2 s: the escalation goes out within 5 s of its time.
      expect(received.at - escalateAt).toBeLessThan(5_000);
      expect(received.at).toBeGreaterThanOrEqual(escalateAt);
      expect(received.headers["content-type"]).toBe("application/json");
      const headers = {
        timestamp: received.headers["x-signature-timestamp"] as string,
        signature: received.headers["x-signature"] as string,
      };
      expect(verify(secret, headers, received.body, Date.now())).toBe("valid");
      expect(verify(secret, headers, received.body.replace("escalated", "escalatex"), Date.now())).toBe(
        "mismatch",
      );
      const payload = JSON.parse(received.body) as { type: string; gate: Body };
      expect(payload.type).toBe("approval.escalated");
      expect(payload.gate).toMatchObject({
        gate_id: gate.gate_id,
        status: "pending",
        rule: "escalating",
        escalated_at: expect.any(Number),
      });
      expect(received.body).not.toContain(secret);

      const read = await readGate(owner, gate.gate_id);
      expect(read.body.escalated_at).toBe(payload.gate.escalated_at);
      // More sweeps, several at once: the gate is escalated and delivered once.
      const api = await testApi();
      await Promise.all([1, 2, 3].map(() => sweepOverdueGates(api.app.services)));
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      expect(hook.calls.filter((c) => c.body.includes(gate.gate_id))).toHaveLength(1);

      const late = await answer(owner, backup.token, gate.gate_id, "approve");
      expect(late.status, late.text).toBe(200);
      expect(late.body).toMatchObject({ outcome: "approved", resolved_by: `user:${backup.userId}` });
    } finally {
      await hook.close();
    }
  });

  it("concurrent markings escalate a gate exactly once", { timeout: 60_000 }, async () => {
    const hook = await receiver();
    try {
      const { owner } = await escalatingWorkspace(hook.url);
      const leased = await leasedFleet(owner);
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) ids.push((await opened(leased)).gate_id);
      const api = await testApi();
      const due = (await readGate(owner, ids.at(-1)!)).body.requested_at + 2_000;
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - Date.now())));
      const runs = await Promise.all([1, 2, 3, 4].map(() => escalateDueGates(api.app.services, () => {})));
      const marked = runs.map((run) => run.escalated);
      const all = marked.flat();
      expect(new Set(all).size).toBe(all.length); // nobody marked a gate twice
      await until(
        () => (ids.every((id) => hook.calls.some((c) => c.body.includes(id))) ? true : undefined),
        8_000,
      );
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      for (const id of ids) expect(hook.calls.filter((c) => c.body.includes(id))).toHaveLength(1);
    } finally {
      await hook.close();
    }
  });

  it("a failed delivery is reported without the secret and never undoes the marking", {
    timeout: 30_000,
  }, async () => {
    const hook = await receiver(500);
    try {
      const { owner, secret } = await escalatingWorkspace(hook.url);
      const gate = await opened(await leasedFleet(owner));
      const api = await testApi();
      await new Promise((resolve) =>
        setTimeout(resolve, Math.max(0, gate.requested_at + 2_000 - Date.now())),
      );
      const reports: string[] = [];
      const { escalated, delivered } = await escalateDueGates(api.app.services, (failure) =>
        reports.push(JSON.stringify(failure)),
      );
      await delivered;
      const read = await readGate(owner, gate.gate_id);
      expect(read.body.escalated_at).toEqual(expect.any(Number));
      if (escalated.includes(gate.gate_id)) {
        expect(reports.join("\n")).toContain("answered 500");
        expect(reports.join("\n")).not.toContain(secret);
        expect(reports.join("\n")).not.toContain("team=ops"); // the origin only
      } else {
        // The background sweeper got there first; its report went to the log.
        await until(
          () => (api.logs.some((l) => l.includes("escalation webhook not delivered")) ? true : undefined),
          5_000,
        );
      }
      expect(api.logs.join("\n")).not.toContain(secret);
    } finally {
      await hook.close();
    }
  });
});
