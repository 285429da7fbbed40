import { approvalGates, eq } from "@fleet/db";
import { beforeAll, describe, expect, it } from "vitest";
import { sweepOverdueGates, timeOutGates } from "../src/services/approvals/sweep.ts";
import { gateBody, type LeasedFleet, leasedFleet, openGate, type RunnerGate } from "./approval-fixtures.ts";
import {
  call,
  callAt,
  databaseKind,
  seedMember,
  seedTenant,
  startApi,
  type Tenant,
  testApi,
} from "./harness.ts";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Page {
  items: RunnerGate[];
  next_cursor: string | null;
}

function answer(owner: Tenant, gateId: string, verb: "approve" | "deny", body: Record<string, unknown> = {}) {
  return call<Record<string, unknown>>(
    "POST",
    `/v1/workspaces/${owner.workspaceId}/approvals/${gateId}/${verb}`,
    {
      token: owner.apiKey,
      body,
    },
  );
}

function waitFor(leased: LeasedFleet, gateId: string, waitMs: number, baseUrl?: string) {
  const path = `/v1/runners/me/leases/${leased.lease.lease_id}/gates/${gateId}?wait_ms=${waitMs}`;
  const options = { token: leased.runner.token };
  return baseUrl === undefined
    ? call<RunnerGate>("GET", path, options)
    : callAt<RunnerGate>(baseUrl, "GET", path, options);
}

async function openMany(leased: LeasedFleet, count: number, extra: Record<string, unknown> = {}) {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const opened = await openGate(leased, extra);
    expect(opened.status, opened.text).toBe(201);
    ids.push(opened.body.gate_id);
  }
  return ids;
}

// The worker's API (and on PGlite its database) starts in a hook, not inside the first test's time.
beforeAll(async () => {
  await testApi();
}, 60_000);

describe("opening a gate", () => {
  it("answers 201 with the pending gate, and 200 with the same gate for the same action_id", async () => {
    const owner = await seedTenant();
    const leased = await leasedFleet(owner);
    const body = gateBody(leased.lease, { timeout_ms: 120_000 });
    const path = `/v1/runners/me/leases/${leased.lease.lease_id}/gates`;
    const first = await call<RunnerGate>("POST", path, { token: leased.runner.token, body });
    expect(first.status, first.text).toBe(201);
    expect(first.body).toMatchObject({
      fleet_id: leased.fleetId,
      workspace_id: owner.workspaceId,
      action_id: body.action_id,
      status: "pending",
      outcome: null,
      resolved_by: null,
      evidence: body.evidence,
    });
    expect(first.body.timeout_at - first.body.requested_at).toBe(120_000);
    const again = await call<RunnerGate>("POST", path, { token: leased.runner.token, body });
    expect(again.status, again.text).toBe(200);
    expect(again.body.gate_id).toBe(first.body.gate_id);
  });

  it("refuses a gate for a fleet that was stopped while its runner still holds the lease", async () => {
    const owner = await seedTenant();
    const leased = await leasedFleet(owner);
    const stopped = await call("PATCH", `/v1/workspaces/${owner.workspaceId}/fleets/${leased.fleetId}`, {
      token: owner.apiKey,
      body: { status: "stopped" },
    });
    expect(stopped.status, stopped.text).toBe(200);
    const opened = await openGate(leased);
    expect(opened.status, opened.text).toBe(409);
    expect(opened.body).toMatchObject({ error_code: "UZ-FLEET-003", current_state: "stopped" });
    const inbox = await call<{ items: unknown[] }>("GET", `/v1/workspaces/${owner.workspaceId}/approvals`, {
      token: owner.apiKey,
    });
    expect(inbox.body.items).toEqual([]);
  });

  it("masks the fleet's declared secrets out of everything the inbox shows", async () => {
    const owner = await seedTenant();
    const secret = "ghp_live_0123456789abcdef";
    const stored = await call("POST", `/v1/workspaces/${owner.workspaceId}/secrets`, {
      token: owner.apiKey,
      body: { name: "GITHUB_TOKEN", data: { token: secret } },
    });
    expect(stored.status, stored.text).toBe(201);
    const leased = await leasedFleet(owner, { credentials: ["GITHUB_TOKEN"] });
    const opened = await openGate(leased, {
      proposed_action: `push with ${secret}`,
      detail: `token ${secret}`,
      blast_radius: `anything ${secret} reaches`,
      evidence: { header: `Bearer ${secret}`, nested: [{ again: secret }] },
    });
    expect(opened.status, opened.text).toBe(201);
    expect(opened.text).not.toContain(secret);
    expect(opened.body.proposed_action).toBe("push with [secret:GITHUB_TOKEN]");
    expect(opened.body.evidence).toEqual({
      header: "Bearer [secret:GITHUB_TOKEN]",
      nested: [{ again: "[secret:GITHUB_TOKEN]" }],
    });
    const read = await call("GET", `/v1/workspaces/${owner.workspaceId}/approvals/${opened.body.gate_id}`, {
      token: owner.apiKey,
    });
    expect(read.status, read.text).toBe(200);
    expect(read.text).not.toContain(secret);
  });

  it("defaults the timeout to an hour and refuses more than 24 h", async () => {
    const leased = await leasedFleet(await seedTenant());
    const opened = await openGate(leased);
    expect(opened.body.timeout_at - opened.body.requested_at).toBe(3_600_000);
    const tooLong = await openGate(leased, { timeout_ms: 24 * 3_600_000 + 1 });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body).toMatchObject({ error_code: "UZ-REQ-001" });
  });

  it("refuses the kind integration_grant, which only a grant request opens", async () => {
    const leased = await leasedFleet(await seedTenant());
    const refused = await openGate(leased, { gate_kind: "integration_grant" });
    expect(refused.status, refused.text).toBe(400);
    expect(refused.body).toMatchObject({ error_code: "UZ-REQ-001" });
    expect(JSON.stringify(refused.body)).toContain("reserved");
  });

  it("refuses a superseded fencing token (409 UZ-RUN-005) and opens nothing", async () => {
    const leased = await leasedFleet(await seedTenant());
    const stale = await openGate(leased, { fencing_token: leased.lease.fencing_token - 1 });
    expect(stale.status, stale.text).toBe(409);
    expect(stale.body).toMatchObject({ error_code: "UZ-RUN-005" });
    const api = await testApi();
    const rows = await api.database.db
      .select()
      .from(approvalGates)
      .where(eq(approvalGates.fleetId, leased.fleetId));
    expect(rows).toHaveLength(0);
  });

  it("refuses evidence over 64 KiB with 413", async () => {
    const leased = await leasedFleet(await seedTenant());
    const big = await openGate(leased, { evidence: { log: "x".repeat(70 * 1024) } });
    expect(big.status, big.text).toBe(413);
    expect(big.body).toMatchObject({ error_code: "UZ-REQ-006" });
    const notObject = await openGate(leased, { evidence: ["a"] });
    expect(notObject.status).toBe(400);
  });
});

describe("waiting for the answer", () => {
  it("is woken by the decision at once, and receives the amended action", async () => {
    const owner = await seedTenant();
    const leased = await leasedFleet(owner);
    const { body: gate } = await openGate(leased);
    const waiting = waitFor(leased, gate.gate_id, 10_000).then((r) => ({ r, at: Date.now() }));
    await sleep(300);
    const decided = await answer(owner, gate.gate_id, "approve", {
      reason: "looks right",
      amended_action: "merge PR #42 with squash",
    });
    const answeredAt = Date.now();
    expect(decided.status, decided.text).toBe(200);
    const { r, at } = await waiting;
    expect(r.status, r.text).toBe(200);
    expect(at - answeredAt).toBeLessThan(1_000);
    expect(r.body).toMatchObject({
      status: "approved",
      outcome: "approved",
      reason: "looks right",
      resolved_by: expect.stringMatching(/^api_key:/),
      proposed_action: "merge PR #42 into main",
      amended_action: "merge PR #42 with squash",
      approved_action: "merge PR #42 with squash",
      failure_label: null,
    });
  });

  it("reads a denial as a refusal with failure_label approval_denied; a person's answer names the user", async () => {
    const owner = await seedTenant();
    const approver = await seedMember(owner, ["approval:resolve", "approval:read"]);
    const leased = await leasedFleet(owner);
    const { body: gate } = await openGate(leased);
    const denied = await call("POST", `/v1/workspaces/${owner.workspaceId}/approvals/${gate.gate_id}/deny`, {
      token: approver.token,
      body: { reason: "not now" },
    });
    expect(denied.status, denied.text).toBe(200);
    expect(denied.body).toMatchObject({ outcome: "denied", resolved_by: `user:${approver.userId}` });
    const read = await waitFor(leased, gate.gate_id, 0);
    expect(read.body).toMatchObject({
      outcome: "denied",
      approved_action: null,
      failure_label: "approval_denied",
    });
  });

  it("without a policy a gate takes the default rule: anyone, one approval, shown in every view", async () => {
    const owner = await seedTenant();
    const approver = await seedMember(owner, ["approval:resolve", "approval:read"]);
    const leased = await leasedFleet(owner);
    const { body: gate } = await openGate(leased, { timeout_ms: 90_000 });
    expect(gate).toMatchObject({
      rule: null,
      required_approvals: 1,
      approvals: [],
      escalated_at: null,
      extended_at: null,
    });
    expect(gate.timeout_at - gate.requested_at).toBe(90_000);
    const approved = await answer(owner, gate.gate_id, "approve");
    expect(approved.body).toMatchObject({ outcome: "approved", required_approvals: 1 });
    expect(approved.body.approvals).toEqual([
      { by: approved.body.resolved_by, user_id: owner.userId, at: approved.body.resolved_at },
    ]);
    const views = [
      (await waitFor(leased, gate.gate_id, 0)).body,
      (
        await call<RunnerGate>("GET", `/v1/workspaces/${owner.workspaceId}/approvals/${gate.gate_id}`, {
          token: approver.token,
        })
      ).body,
    ];
    for (const view of views)
      expect(view).toMatchObject({ status: "approved", approvals: approved.body.approvals });
  });

  it("ends a wait with the gate still pending when wait_ms passes", async () => {
    const leased = await leasedFleet(await seedTenant());
    const { body: gate } = await openGate(leased);
    const started = Date.now();
    const read = await waitFor(leased, gate.gate_id, 400);
    expect(read.status).toBe(200);
    expect(read.body.status).toBe("pending");
    expect(Date.now() - started).toBeGreaterThanOrEqual(350);
  });

  it("closes a fleet's pending gates as auto_killed when it is stopped", async () => {
    const owner = await seedTenant();
    const leased = await leasedFleet(owner);
    const { body: gate } = await openGate(leased);
    const waiting = waitFor(leased, gate.gate_id, 10_000);
    await sleep(200);
    const stopped = await call("PATCH", `/v1/workspaces/${owner.workspaceId}/fleets/${leased.fleetId}`, {
      token: owner.apiKey,
      body: { status: "stopped" },
    });
    expect(stopped.status, stopped.text).toBe(200);
    const read = await waiting;
    expect(read.body).toMatchObject({
      outcome: "auto_killed",
      resolved_by: "system:fleet_stopped",
      failure_label: "approval_auto_killed",
    });
    const late = await answer(owner, gate.gate_id, "approve");
    expect(late.status).toBe(409);
    expect(late.body).toMatchObject({ error_code: "UZ-APPROVAL-005", outcome: "auto_killed" });
  });

  it("keeps a deleted fleet's gates, closed as auto_killed", async () => {
    const owner = await seedTenant();
    const leased = await leasedFleet(owner);
    const { body: gate } = await openGate(leased);
    const deleted = await call("DELETE", `/v1/workspaces/${owner.workspaceId}/fleets/${leased.fleetId}`, {
      token: owner.apiKey,
    });
    expect(deleted.status, deleted.text).toBe(204);
    const read = await waitFor(leased, gate.gate_id, 0);
    expect(read.body).toMatchObject({ outcome: "auto_killed", resolved_by: "system:fleet_deleted" });
  });
});

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
    await answer(owner, first[0]!, "deny");
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

describe("first answer wins", () => {
  // Twenty answers racing on each of 100 gates, and two instances answering: approval-races.test.ts.
  it("a decision racing the timeout sweeper ends in exactly one outcome", { timeout: 60_000 }, async () => {
    const owner = await seedTenant();
    const leased = await leasedFleet(owner);
    const api = await testApi();
    const ids = await openMany(leased, 10, { timeout_ms: 1_000 });
    const { body: last } = await call<RunnerGate>(
      "GET",
      `/v1/workspaces/${owner.workspaceId}/approvals/${ids.at(-1)}`,
      {
        token: owner.apiKey,
      },
    );
    // Answers spread around the deadlines while sweeps run.
    await sleep(Math.max(0, last.timeout_at - Date.now() - 150));
    const sweeps = Promise.all(
      [0, 50, 100, 150, 200].map((ms) => sleep(ms).then(() => sweepOverdueGates(api.app.services))),
    );
    const answers = await Promise.all(
      ids.flatMap((id, i) =>
        [0, 1, 2].map((k) =>
          sleep((i * 7 + k * 60) % 300).then(() => answer(owner, id, "approve").then((r) => ({ id, r }))),
        ),
      ),
    );
    await sweeps;
    for (const id of ids) {
      const mine = answers.filter((a) => a.id === id).map((a) => a.r);
      const row = (await api.database.db.select().from(approvalGates).where(eq(approvalGates.id, id)))[0]!;
      expect(["approved", "timed_out"]).toContain(row.status);
      const won = mine.filter((r) => r.status === 200);
      expect(won.length).toBe(row.status === "approved" ? 1 : 0);
      for (const r of mine.filter((r) => r.status !== 200)) {
        expect(r.status).toBe(409);
        expect(r.body.outcome).toBe(row.status);
      }
    }
  });

  it("the sweeper times an unanswered gate out within 5 s of its deadline", { timeout: 30_000 }, async () => {
    const owner = await seedTenant();
    const leased = await leasedFleet(owner);
    const { body: gate } = await openGate(leased, { timeout_ms: 1_000 });
    const waiting = waitFor(leased, gate.gate_id, 20_000).then((r) => ({ r, at: Date.now() }));
    const { r, at } = await waiting;
    expect(r.body).toMatchObject({
      status: "timed_out",
      resolved_by: "system:timeout",
      resolved_at: gate.timeout_at,
      failure_label: "approval_timed_out",
    });
    expect(at - gate.timeout_at).toBeLessThan(5_000);
    const late = await answer(owner, gate.gate_id, "approve");
    expect(late.status).toBe(409);
    expect(late.body).toMatchObject({ error_code: "UZ-APPROVAL-003", outcome: "timed_out" });
  });

  it("a terminal row cannot be changed, even by a direct SQL UPDATE", async () => {
    const owner = await seedTenant();
    const leased = await leasedFleet(owner);
    const { body: gate } = await openGate(leased);
    expect((await answer(owner, gate.gate_id, "deny")).status).toBe(200);
    const api = await testApi();
    await expect(
      api.database.query("update approval_gates set status = 'approved' where id = $1", [gate.gate_id]),
    ).rejects.toThrow(/can no longer change/);
    await expect(
      api.database.query("update approval_gates set reason = 'rewritten' where id = $1", [gate.gate_id]),
    ).rejects.toThrow(/can no longer change/);
    const [row] = await api.database.db
      .select()
      .from(approvalGates)
      .where(eq(approvalGates.id, gate.gate_id));
    expect(row).toMatchObject({ status: "denied", reason: null });
  });

  it("refuses another tenant's gate as absent", async () => {
    const owner = await seedTenant();
    const stranger = await seedTenant();
    const leased = await leasedFleet(owner);
    const { body: gate } = await openGate(leased);
    const theirs = await call(
      "POST",
      `/v1/workspaces/${stranger.workspaceId}/approvals/${gate.gate_id}/approve`,
      {
        token: stranger.apiKey,
        body: {},
      },
    );
    expect(theirs.status).toBe(404);
    expect(theirs.body).toMatchObject({ error_code: "UZ-APPROVAL-001" });
  });
});

// Instances hear of each other's answers only through PostgreSQL's NOTIFY: PGlite is one process's database.
describe.runIf(databaseKind === "postgres")("answers across instances", () => {
  it("wakes a runner waiting on one instance when the gate is answered through another", async () => {
    const first = await testApi();
    const second = await startApi({ DATABASE_URL: first.config.databaseUrl });
    try {
      const owner = await seedTenant();
      const leased = await leasedFleet(owner);
      const { body: gate } = await openGate(leased);
      const waiting = waitFor(leased, gate.gate_id, 10_000, second.baseUrl).then((r) => ({
        r,
        at: Date.now(),
      }));
      await sleep(300);
      expect((await answer(owner, gate.gate_id, "deny")).status).toBe(200);
      const answeredAt = Date.now();
      const { r, at } = await waiting;
      expect(r.body).toMatchObject({ outcome: "denied", failure_label: "approval_denied" });
      // The second instance re-reads every 5 s on its own; only the NOTIFY wakes it this soon.
      expect(at - answeredAt).toBeLessThan(1_000);

      // Two instances answering the same gates: one winner each, the rest see it.
      const ids = await openMany(leased, 10);
      for (const gateId of ids) {
        const answers = await Promise.all(
          Array.from({ length: 10 }, (_, i) =>
            callAt<Record<string, unknown>>(
              i % 2 === 0 ? first.baseUrl : second.baseUrl,
              "POST",
              `/v1/workspaces/${owner.workspaceId}/approvals/${gateId}/approve`,
              { token: owner.apiKey, body: {} },
            ),
          ),
        );
        expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
        expect(
          answers.filter((a) => a.status === 409 && a.body.error_code === "UZ-APPROVAL-006"),
        ).toHaveLength(9);
      }

      // Sweeps on both instances at once (and the instances' own sweeper): each overdue gate is timed out
      // by exactly one pass, never twice.
      const overdue = await openMany(leased, 20, { timeout_ms: 1_000 });
      await sleep(1_100);
      const passes = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          timeOutGates((i % 2 === 0 ? first : second).database.db, Date.now()),
        ),
      );
      const swept = passes.flat().filter((id) => overdue.includes(id));
      expect(new Set(swept).size).toBe(swept.length);
      for (const id of overdue) {
        const [row] = await first.database.db.select().from(approvalGates).where(eq(approvalGates.id, id));
        expect(row?.status).toBe("timed_out");
      }
    } finally {
      await second.app.close();
      await second.database.close();
    }
  });
});
