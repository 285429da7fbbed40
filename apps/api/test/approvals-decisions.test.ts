import { approvalGates, eq } from "@fleet/db";
import { beforeAll, describe, expect, it } from "vitest";
import { sweepOverdueGates, timeOutGates } from "../src/services/approvals/sweep.ts";
import {
  answerGate,
  leasedFleet,
  openGate,
  openMany,
  type RunnerGate,
  waitFor,
} from "./approval-fixtures.ts";
import { call, callAt, databaseKind, seedTenant, sleep, startApi, testApi } from "./harness.ts";

// The worker's API (and on PGlite its database) starts in a hook, not inside the first test's time.
beforeAll(async () => {
  await testApi();
}, 60_000);

describe("first answer wins", () => {
  // Twenty answers racing on each of 100 gates, and two instances answering: approvals-races-*.test.ts.
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
          sleep((i * 7 + k * 60) % 300).then(() => answerGate(owner, id, "approve").then((r) => ({ id, r }))),
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
    const late = await answerGate(owner, gate.gate_id, "approve");
    expect(late.status).toBe(409);
    expect(late.body).toMatchObject({ error_code: "UZ-APPROVAL-003", outcome: "timed_out" });
  });

  it("a terminal row cannot be changed, even by a direct SQL UPDATE", async () => {
    const owner = await seedTenant();
    const leased = await leasedFleet(owner);
    const { body: gate } = await openGate(leased);
    expect((await answerGate(owner, gate.gate_id, "deny")).status).toBe(200);
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
      expect((await answerGate(owner, gate.gate_id, "deny")).status).toBe(200);
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
      const swept = passes
        .flat()
        .map((gate) => gate.id)
        .filter((id) => overdue.includes(id));
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
