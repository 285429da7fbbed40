import { beforeAll, describe, expect, it } from "vitest";
import { leasedFleet } from "./approval-fixtures.ts";
import { answerAs, type Body, opened, people, putPolicy, RESOLVER } from "./approval-policy-fixtures.ts";
import { installFleet } from "./fleet-fixtures.ts";
import { requestGrant } from "./grant-fixtures.ts";
import { call, seedMember, seedTenant, type Tenant, testApi } from "./harness.ts";

// The worker's API starts (and, on PGlite, migrates) in a hook, not inside the first test's time.
beforeAll(async () => {
  await testApi();
}, 60_000);

const MEMBERS = "/v1/tenants/me/members";
const TWO_PEOPLE = {
  rules: [{ name: "two people", match: {}, required_approvals: 2 }],
  escalation_webhook_url: null,
};

/** Invites a person with `token` and spends their sign-in link, as the inviter holding it could. */
async function inviteAndSignIn(token: string, scopes: string[]) {
  const invited = await call<{ member: { user_id: string }; sign_in_url: string }>("POST", MEMBERS, {
    token,
    body: { email: `second-${Date.now()}-${Math.random().toString(36).slice(2)}@example.test`, scopes },
  });
  expect(invited.status, invited.text).toBe(201);
  const link = new URL(invited.body.sign_in_url).searchParams.get("token")!;
  const exchanged = await call<{ session_token: string }>("POST", "/v1/auth/sign-in-links/exchange", {
    body: { token: link },
  });
  expect(exchanged.status, exchanged.text).toBe(200);
  return { userId: invited.body.member.user_id, token: exchanged.body.session_token };
}

function gateOf(owner: Tenant, gateId: string) {
  return call<Body>("GET", `/v1/workspaces/${owner.workspaceId}/approvals/${gateId}`, {
    token: owner.apiKey,
  });
}

describe("quorum means people", () => {
  it("an admin's second identity, invited after the gate opened, does not make a two-person rule", async () => {
    const owner = await seedTenant();
    expect((await putPolicy(owner, TWO_PEOPLE)).status).toBe(200);
    const gate = await opened(await leasedFleet(owner));
    const mine = await answerAs(owner, owner.apiKey, gate.gate_id, "approve");
    expect(mine.body).toMatchObject({ outcome: "pending" });
    const second = await inviteAndSignIn(owner.apiKey, RESOLVER);
    const refused = await answerAs(owner, second.token, gate.gate_id, "approve");
    expect(refused.status, refused.text).toBe(403);
    expect(refused.headers.get("content-type")).toContain("application/problem+json");
    expect(refused.body).toMatchObject({ error_code: "UZ-APPROVAL-011", gate_id: gate.gate_id });
    expect(refused.body.detail).toMatch(/joined the tenant after this gate opened/);
    const after = await gateOf(owner, gate.gate_id);
    expect(after.body).toMatchObject({
      status: "pending",
      approvals: [{ user_id: owner.userId, counted: true }],
    });
  });

  it("an identity of the admin's making, invited before the gate opened, counts with the admin once", async () => {
    const owner = await seedTenant();
    expect((await putPolicy(owner, TWO_PEOPLE)).status).toBe(200);
    const second = await inviteAndSignIn(owner.apiKey, [...RESOLVER, "workspace:admin"]);
    // Made by the second identity: the same family, the chain's root being the admin.
    const third = await inviteAndSignIn(second.token, RESOLVER);
    // Someone who joined otherwise (here, added by the operator) is a person of their own.
    const [independent] = await people(owner, 1);
    const gate = await opened(await leasedFleet(owner));
    expect((await answerAs(owner, second.token, gate.gate_id, "approve")).body.outcome).toBe("pending");
    for (const token of [owner.apiKey, third.token]) {
      const refused = await answerAs(owner, token, gate.gate_id, "approve");
      expect(refused.status, refused.text).toBe(403);
      expect(refused.body.error_code).toBe("UZ-APPROVAL-011");
      expect(refused.body.detail).toMatch(/invitation family/);
    }
    expect((await gateOf(owner, gate.gate_id)).body).toMatchObject({ status: "pending" });
    const decided = await answerAs(owner, independent!.token, gate.gate_id, "approve");
    expect(decided.body).toMatchObject({ outcome: "approved", resolved_by: `user:${independent!.userId}` });
  });

  it("a rule naming fewer invitation families than the approvals it takes is refused", async () => {
    const owner = await seedTenant();
    const second = await inviteAndSignIn(owner.apiKey, RESOLVER);
    const [other] = await people(owner, 1);
    const rule = { name: "pair", match: {}, required_approvals: 2 };
    const refused = await putPolicy(owner, {
      rules: [{ ...rule, approvers: [owner.userId, second.userId] }],
      escalation_webhook_url: null,
    });
    expect(refused.status, refused.text).toBe(400);
    expect(refused.body).toMatchObject({ error_code: "UZ-APPROVAL-002" });
    expect(refused.body.detail).toMatch(/1 invitation family/);
    const stored = await putPolicy(owner, {
      rules: [{ ...rule, approvers: [owner.userId, second.userId, other!.userId] }],
      escalation_webhook_url: null,
    });
    expect(stored.status, stored.text).toBe(200);
  });

  it("a member removed while the gate is pending stops counting; the vote stays, marked", async () => {
    const owner = await seedTenant();
    const [a, b, c] = await people(owner, 3);
    await putPolicy(owner, {
      rules: [
        {
          name: "two of three",
          match: {},
          approvers: [a!.userId, b!.userId, c!.userId],
          required_approvals: 2,
        },
      ],
      escalation_webhook_url: null,
    });
    const gate = await opened(await leasedFleet(owner));
    expect((await answerAs(owner, a!.token, gate.gate_id, "approve")).body.outcome).toBe("pending");
    const removed = await call("DELETE", `${MEMBERS}/${a!.userId}`, { token: owner.apiKey });
    expect(removed.status, removed.text).toBe(204);
    const second = await answerAs(owner, b!.token, gate.gate_id, "approve");
    expect(second.status, second.text).toBe(200);
    expect(second.body).toMatchObject({
      outcome: "pending",
      approvals: [
        { user_id: a!.userId, counted: false },
        { user_id: b!.userId, counted: true },
      ],
    });
    expect((await gateOf(owner, gate.gate_id)).body).toMatchObject({
      status: "pending",
      approvals: [{ counted: false }, { counted: true }],
    });
    const third = await answerAs(owner, c!.token, gate.gate_id, "approve");
    expect(third.body).toMatchObject({ outcome: "approved", resolved_by: `user:${c!.userId}` });
  });

  it("the person who caused a gate cannot approve it unless the policy allows it", async () => {
    const owner = await seedTenant();
    const requester = await seedMember(owner, ["fleet:write", ...RESOLVER]);
    const gate = await opened(await leasedFleet(owner, { requester: requester.token }));
    const own = await answerAs(owner, requester.token, gate.gate_id, "approve");
    expect(own.status, own.text).toBe(403);
    expect(own.headers.get("content-type")).toContain("application/problem+json");
    expect(own.body).toMatchObject({ error_code: "UZ-APPROVAL-010", gate_id: gate.gate_id });
    expect((await gateOf(owner, gate.gate_id)).body).toMatchObject({ status: "pending", approvals: [] });
    // The owner's own key caused this one: a key counts as its creator.
    const byKey = await opened(await leasedFleet(owner, { requester: owner.apiKey }));
    expect((await answerAs(owner, owner.apiKey, byKey.gate_id, "approve")).body.error_code).toBe(
      "UZ-APPROVAL-010",
    );
    const allowed = await putPolicy(owner, {
      rules: [],
      escalation_webhook_url: null,
      allow_self_approval: true,
    });
    expect(allowed.status, allowed.text).toBe(200);
    expect(allowed.body.allow_self_approval).toBe(true);
    // A pending gate keeps the terms it opened with; a new one takes the new policy.
    expect((await answerAs(owner, requester.token, gate.gate_id, "approve")).status).toBe(403);
    const later = await opened(await leasedFleet(owner, { requester: requester.token }));
    const approved = await answerAs(owner, requester.token, later.gate_id, "approve");
    expect(approved.body).toMatchObject({ outcome: "approved" });
  });

  it("the member who requested a grant cannot approve its gate", async () => {
    const owner = await seedTenant();
    const requester = await seedMember(owner, ["fleet:write", ...RESOLVER]);
    const fleetId = await installFleet(owner);
    const requested = await requestGrant(owner, fleetId, "github", "Open pull requests.", requester.token);
    expect(requested.status, requested.text).toBe(201);
    const gateId = requested.body.gate_id!;
    const own = await answerAs(owner, requester.token, gateId, "approve");
    expect(own.status, own.text).toBe(403);
    expect(own.body.error_code).toBe("UZ-APPROVAL-010");
    expect((await answerAs(owner, owner.apiKey, gateId, "approve")).body).toMatchObject({
      outcome: "approved",
    });
  });
});
