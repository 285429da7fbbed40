import { approvalGates, approvalVotes, eq } from "@fleet/db";
import { beforeAll, describe, expect, it } from "vitest";
import { leasedFleet, type RunnerGate, readGate } from "./approval-fixtures.ts";
import {
  answerAs,
  auditActions,
  type Body,
  opened,
  people,
  putPolicy,
  RESOLVER,
} from "./approval-policy-fixtures.ts";
import { call, databaseKind, seedMember, seedTenant, sessionFor, type Tenant, testApi } from "./harness.ts";

// The worker's API starts (and, on PGlite, migrates) in a hook, not inside the first test's time.
beforeAll(async () => {
  await testApi();
}, 60_000);

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
    const first = await answerAs(owner, a!.token, gate.gate_id, "approve", { reason: "ok by me" });
    expect(first.status, first.text).toBe(200);
    expect(first.body).toMatchObject({
      outcome: "pending",
      resolved_at: null,
      resolved_by: null,
      required_approvals: 2,
      approvals: [{ by: `user:${a!.userId}`, user_id: a!.userId }],
    });
    const again = await answerAs(owner, a!.token, gate.gate_id, "approve");
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ error_code: "UZ-APPROVAL-008", approvals: [{ user_id: a!.userId }] });
    const pending = await readGate(owner, gate.gate_id);
    expect(pending.body).toMatchObject({ status: "pending", approvals: [{ user_id: a!.userId }] });
    const amended = await answerAs(owner, b!.token, gate.gate_id, "approve", { amended_action: "less" });
    expect(amended.status).toBe(400);
    expect(amended.body.error_code).toBe("UZ-APPROVAL-002");
    const second = await answerAs(owner, b!.token, gate.gate_id, "approve");
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
    const byKey = await answerAs(owner, owner.apiKey, gate.gate_id, "approve");
    expect(byKey.body).toMatchObject({ outcome: "pending", approvals: [{ user_id: owner.userId }] });
    expect((byKey.body.approvals as Body[])[0]!.by).toMatch(/^api_key:/);
    const ownerSession = await sessionFor(owner, "cli");
    const bySession = await answerAs(owner, ownerSession, gate.gate_id, "approve");
    expect(bySession.status, bySession.text).toBe(409);
    expect(bySession.body.error_code).toBe("UZ-APPROVAL-008");
    const decided = await answerAs(owner, other.token, gate.gate_id, "approve");
    expect(decided.body).toMatchObject({ outcome: "approved" });
  });

  it("any denial decides, even after approvals", async () => {
    const owner = await seedTenant();
    const [a, b, c] = await twoOfThree(owner);
    const gate = await opened(await leasedFleet(owner), { gate_kind: "spend" });
    expect((await answerAs(owner, a!.token, gate.gate_id, "approve")).body.outcome).toBe("pending");
    const denied = await answerAs(owner, b!.token, gate.gate_id, "deny", { reason: "too much" });
    expect(denied.status, denied.text).toBe(200);
    expect(denied.body).toMatchObject({ outcome: "denied", resolved_by: `user:${b!.userId}` });
    const late = await answerAs(owner, c!.token, gate.gate_id, "approve");
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
          Array.from({ length: 5 }, () => answerAs(owner, person.token, gateId, "approve")),
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
