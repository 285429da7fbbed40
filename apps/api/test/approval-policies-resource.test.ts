import { beforeAll, describe, expect, it } from "vitest";
import { auditActions, type Body, people, policyPath, putPolicy } from "./approval-policy-fixtures.ts";
import { call, seedTenant, testApi } from "./harness.ts";

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
      allow_self_approval: false,
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
