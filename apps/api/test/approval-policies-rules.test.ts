import { beforeAll, describe, expect, it } from "vitest";
import { leasedFleet, type RunnerGate } from "./approval-fixtures.ts";
import { answerAs, auditActions, type Body, opened, people, putPolicy } from "./approval-policy-fixtures.ts";
import { call, seedTenant, testApi } from "./harness.ts";

// The worker's API starts (and, on PGlite, migrates) in a hook, not inside the first test's time.
beforeAll(async () => {
  await testApi();
}, 60_000);

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
    const first = await answerAs(owner, owner.apiKey, spend.gate_id, "approve");
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
      const refused = await answerAs(owner, other!.token, gate.gate_id, verb);
      expect(refused.status, refused.text).toBe(403);
      expect(refused.body).toMatchObject({ error_code: "UZ-APPROVAL-004", rule: "named only" });
      expect(refused.body.detail).toContain('"named only"');
    }
    // The owner holds every scope but is not named either; their API key answers as them.
    const owners = await answerAs(owner, owner.apiKey, gate.gate_id, "approve");
    expect(owners.status).toBe(403);
    const ok = await answerAs(owner, named!.token, gate.gate_id, "approve", { reason: "fine" });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body).toMatchObject({ outcome: "approved", resolved_by: `user:${named!.userId}` });
    expect(await auditActions(`approval_gate:${gate.gate_id}`)).toEqual(["approval.approve"]);
  });
});

describe("high blast radius", () => {
  it("takes the rule's high_blast, else the blast radius's words, and keeps it on a pending gate", async () => {
    const owner = await seedTenant();
    for (const bad of ["yes", null, 1]) {
      const refused = await putPolicy(owner, {
        rules: [{ name: "bad", match: {}, high_blast: bad }],
        escalation_webhook_url: null,
      });
      expect(refused.status, refused.text).toBe(400);
      expect(refused.body).toMatchObject({ error_code: "UZ-REQ-001" });
      expect(refused.body.detail).toContain("high_blast");
    }
    const put = await putPolicy(owner, {
      rules: [
        { name: "ledger", match: { blast_radius: ["billing ledger"] }, high_blast: true },
        { name: "sandbox", match: { blast_radius: ["prod sandbox"] }, high_blast: false },
        { name: "deploys", match: { gate_kinds: ["deploy"] } },
      ],
      escalation_webhook_url: null,
    });
    expect(put.status, put.text).toBe(200);
    expect(put.body.rules).toMatchObject([{ high_blast: true }, { high_blast: false }, {}]);
    const leased = await leasedFleet(owner);
    const highOf = async (blast_radius: string, gate_kind = "deploy") =>
      (await opened(leased, { blast_radius, gate_kind })).high_blast;
    expect(await highOf("billing ledger")).toBe(true); // the rule says, the words do not
    expect(await highOf("prod sandbox")).toBe(false); // the rule says, over the words
    expect(await highOf("Production web, all customers")).toBe(true); // a rule silent on it: words
    expect(await highOf("CRITICAL: payments")).toBe(true);
    expect(await highOf("one staging box")).toBe(false);
    expect(await highOf("productionised", "other")).toBe(false); // whole words, no rule
    const ledger = await opened(leased, { blast_radius: "billing ledger" });

    await putPolicy(owner, { rules: [], escalation_webhook_url: null });
    const read = await call<Body>("GET", `/v1/workspaces/${owner.workspaceId}/approvals/${ledger.gate_id}`, {
      token: owner.apiKey,
    });
    expect(read.body).toMatchObject({ high_blast: true, rule: "ledger" });
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

    expect((await answerAs(owner, named!.token, gate.gate_id, "deny")).status).toBe(200);
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
