import type { FakeChatVendor } from "@fleet/testing/fake-chat-vendor";
import { beforeAll, describe, expect, it } from "vitest";
import { opened, people, putPolicy, RESOLVER } from "./approval-policy-fixtures.ts";
import {
  click,
  consoleMember,
  ephemeralFor,
  gatePosted,
  linkChatUser,
  linkToken,
  postedGate,
  redeem,
  routedFleet,
  sendClick,
} from "./chat-link-fixtures.ts";
import { useFakeVendor } from "./connector-fixtures.ts";
import { grantOf, requestGrant } from "./grant-fixtures.ts";
import { call, seedTenant, sessionFor, type Tenant } from "./harness.ts";

const fakeVendor = useFakeVendor();
let vendor: FakeChatVendor;
beforeAll(() => {
  vendor = fakeVendor();
});

async function gateStatus(tenant: Tenant, gateId: string) {
  const read = await call("GET", `/v1/workspaces/${tenant.workspaceId}/approvals/${gateId}`, {
    token: tenant.apiKey,
  });
  expect(read.status, read.text).toBe(200);
  return read.body;
}

/** A connected tenant with a routed fleet and one gate posted to its channel. */
async function setup() {
  const tenant = await seedTenant();
  const { team, leased, channel } = await routedFleet(vendor, tenant);
  const { gateId, message } = await gatePosted(vendor, leased);
  return { tenant, team, leased, channel, gateId, message };
}

describe("chat clicks decide a gate only for a linked member", () => {
  it("leaves the gate pending for a guest: an unlinked user is sent a link, a user of another team none", async () => {
    const { tenant, team, gateId, message } = await setup();
    let since = vendor.ephemeral.length;
    const guest = await sendClick(vendor, click(team.id, gateId, message, "approve", "UGUEST"));
    expect(guest.status).toBe(200);
    expect(guest.body).toEqual({ status: "ignored", error_code: "UZ-SLK-040" });
    const told = await ephemeralFor(vendor, "UGUEST", since);
    expect(told.channel).toBe(message.channel);
    // The guest is no member: a member of another tenant cannot take the link on either.
    const stranger = await seedTenant();
    const refused = await redeem(linkToken(told.text), await sessionFor(stranger));
    expect(refused.status).toBe(400);
    expect(refused.body.error_code).toBe("UZ-CONN-006");
    // A user of another organisation in a shared channel: refused, and offered no link.
    since = vendor.ephemeral.length;
    const foreign = await sendClick(
      vendor,
      click(team.id, gateId, message, "approve", "UEXT", "T-OTHER-ORG"),
    );
    expect(foreign.body).toEqual({ status: "ignored", error_code: "UZ-SLK-041" });
    const warned = await ephemeralFor(vendor, "UEXT", since);
    expect(warned.text).not.toContain("/connect/chat-link");
    expect(await gateStatus(tenant, gateId)).toMatchObject({ status: "pending", resolved_by: null });
  });

  it("never lets a link made for one team answer for a user of another team with the same user id", async () => {
    const { tenant, team, gateId, message } = await setup();
    await linkChatUser(vendor, team.id, gateId, message, "USHARED", await sessionFor(tenant));
    // The same user id, but the user's own team is another organisation's (a shared channel).
    const foreign = await sendClick(
      vendor,
      click(team.id, gateId, message, "approve", "USHARED", "T-ELSEWHERE"),
    );
    expect(foreign.body).toEqual({ status: "ignored", error_code: "UZ-SLK-041" });
    // And a team connected to another tenant's workspace does not see this tenant's link either.
    const other = await setup();
    const elsewhere = await sendClick(
      vendor,
      click(other.team.id, other.gateId, other.message, "approve", "USHARED"),
    );
    expect(elsewhere.body).toEqual({ status: "ignored", error_code: "UZ-SLK-040" });
    expect(await gateStatus(tenant, gateId)).toMatchObject({ status: "pending" });
    expect(await gateStatus(other.tenant, other.gateId)).toMatchObject({ status: "pending" });
  });

  it("answers an unlinked member's click with a one-time link; redeeming it links, a second redeem fails", async () => {
    const { tenant, team, gateId, message } = await setup();
    const since = vendor.ephemeral.length;
    const unlinked = await sendClick(vendor, click(team.id, gateId, message, "approve", "UMEMBER"));
    expect(unlinked.body).toEqual({ status: "ignored", error_code: "UZ-SLK-040" });
    expect(await gateStatus(tenant, gateId)).toMatchObject({ status: "pending" });
    const token = linkToken((await ephemeralFor(vendor, "UMEMBER", since)).text);
    // A command-line credential or an API key does not confirm a link: the console does.
    const cli = await redeem(token, await sessionFor(tenant, "cli"));
    expect(cli.status).toBe(401);
    const key = await redeem(token, tenant.apiKey);
    expect(key.status).toBe(401);
    const session = await sessionFor(tenant);
    const linked = await redeem(token, session);
    expect(linked.status, linked.text).toBe(201);
    expect(linked.body).toMatchObject({
      user_id: tenant.userId,
      provider: "slack",
      team_id: team.id,
      team_name: team.name,
      chat_user_id: "UMEMBER",
    });
    const again = await redeem(token, session);
    expect(again.status).toBe(400);
    expect(again.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    expect(again.body.error_code).toBe("UZ-CONN-006");
    const forged = await redeem(`${token.split(".")[0]}.AAAA`, session);
    expect(forged.body.error_code).toBe("UZ-CONN-006");
    const mine = await call("GET", "/v1/users/me/chat-links", { token: session });
    expect(mine.body).toEqual({ items: [linked.body] });
    // The link's only trace in the database is its hash: the token is nowhere in a response but the chat.
    expect(JSON.stringify(mine.body)).not.toContain(token);
  });

  it("leaves the gate pending for a linked member without approval:resolve", async () => {
    const { tenant, team, gateId, message } = await setup();
    const reader = await consoleMember(tenant, ["approval:read"]);
    await linkChatUser(vendor, team.id, gateId, message, "UREADER", reader.token);
    const since = vendor.ephemeral.length;
    const answer = await sendClick(vendor, click(team.id, gateId, message, "approve", "UREADER"));
    expect(answer.body).toEqual({ status: "ignored", error_code: "UZ-AUTH-022" });
    expect((await ephemeralFor(vendor, "UREADER", since)).text).toContain("approval:resolve");
    expect(await gateStatus(tenant, gateId)).toMatchObject({ status: "pending" });
  });

  it("leaves a gate whose rule names other approvers pending for a linked member who is not named", async () => {
    const tenant = await seedTenant();
    const [named] = await people(tenant, 1);
    const policy = await putPolicy(tenant, {
      rules: [{ name: "named only", match: {}, approvers: [named!.userId] }],
      escalation_webhook_url: null,
    });
    expect(policy.status, policy.text).toBe(200);
    const { team, leased } = await routedFleet(vendor, tenant);
    const gate = await opened(leased);
    const { message } = await gatePosted(vendor, leased);
    const other = await consoleMember(tenant, RESOLVER);
    await linkChatUser(vendor, team.id, gate.gate_id, message, "UOTHER", other.token);
    const since = vendor.ephemeral.length;
    const answer = await sendClick(vendor, click(team.id, gate.gate_id, message, "deny", "UOTHER"));
    expect(answer.body).toEqual({ status: "ignored", error_code: "UZ-APPROVAL-004" });
    expect((await ephemeralFor(vendor, "UOTHER", since)).text).toContain("named only");
    expect(await gateStatus(tenant, gate.gate_id)).toMatchObject({ status: "pending" });
  });

  it("lets a linked member holding the scope decide the gate as themselves, audited as the member", async () => {
    // A member when the gate opened: only such a person's approval counts.
    const tenant = await seedTenant();
    const { team, leased } = await routedFleet(vendor, tenant);
    const approver = await consoleMember(tenant, RESOLVER);
    const { gateId, message } = await gatePosted(vendor, leased);
    await linkChatUser(vendor, team.id, gateId, message, "UAPPROVER", approver.token);
    const answer = await sendClick(vendor, click(team.id, gateId, message, "approve", "UAPPROVER"));
    expect(answer.body).toEqual({ status: "ok" });
    expect(await gateStatus(tenant, gateId)).toMatchObject({
      status: "approved",
      resolved_by: `user:${approver.userId}`,
    });
    const audit = await call("GET", `/v1/workspaces/${tenant.workspaceId}/audit?action=approval.approve`, {
      token: tenant.apiKey,
    });
    expect(JSON.stringify(audit.body)).toContain(`user:${approver.userId}`);
  });

  it("stops a removed member's link working", async () => {
    const { tenant, team, gateId, message } = await setup();
    const leaving = await consoleMember(tenant, RESOLVER);
    await linkChatUser(vendor, team.id, gateId, message, "ULEAVING", leaving.token);
    const removed = await call("DELETE", `/v1/tenants/me/members/${leaving.userId}`, {
      token: tenant.apiKey,
    });
    expect(removed.status, removed.text).toBe(204);
    const answer = await sendClick(vendor, click(team.id, gateId, message, "approve", "ULEAVING"));
    expect(answer.body).toEqual({ status: "ignored", error_code: "UZ-SLK-040" });
    expect(await gateStatus(tenant, gateId)).toMatchObject({ status: "pending" });
    const all = await call("GET", "/v1/tenants/me/chat-links", { token: tenant.apiKey });
    expect(all.body).toEqual({ items: [] });
  });
});

describe("integration grants in chat", () => {
  it("follows the same rules: an unlinked click leaves the grant pending, a linked member's decides it", async () => {
    const tenant = await seedTenant();
    const { team, leased } = await routedFleet(vendor, tenant);
    const approver = await consoleMember(tenant, RESOLVER);
    const requested = await requestGrant(tenant, leased.fleetId);
    expect(requested.status, requested.text).toBe(201);
    const gateId = requested.body.gate_id!;
    const message = await postedGate(vendor, gateId);
    const reader = await consoleMember(tenant, ["approval:read"]);
    await linkChatUser(vendor, team.id, gateId, message, "UGRANTREADER", reader.token);
    const refused = await sendClick(vendor, click(team.id, gateId, message, "approve", "UGRANTREADER"));
    expect(refused.body).toEqual({ status: "ignored", error_code: "UZ-AUTH-022" });
    expect(await grantOf(tenant, leased.fleetId, requested.body.grant_id)).toMatchObject({
      status: "pending",
    });
    await linkChatUser(vendor, team.id, gateId, message, "UGRANTER", approver.token);
    const decided = await sendClick(vendor, click(team.id, gateId, message, "approve", "UGRANTER"));
    expect(decided.body).toEqual({ status: "ok" });
    expect(await grantOf(tenant, leased.fleetId, requested.body.grant_id)).toMatchObject({
      status: "approved",
    });
    expect(await gateStatus(tenant, gateId)).toMatchObject({ resolved_by: `user:${approver.userId}` });
  });
});

describe("chat links", () => {
  it("a member removes their own link, not another's; an admin removes any in the tenant", async () => {
    const { tenant, team, gateId, message } = await setup();
    const first = await consoleMember(tenant, RESOLVER);
    const second = await consoleMember(tenant, RESOLVER);
    const mine = await linkChatUser(vendor, team.id, gateId, message, "UFIRST", first.token);
    const theirs = await linkChatUser(vendor, team.id, gateId, message, "USECOND", second.token);
    const listed = await call("GET", "/v1/tenants/me/chat-links", { token: tenant.apiKey });
    expect(listed.body).toEqual({ items: [mine, theirs] });
    const notMine = await call("DELETE", `/v1/tenants/me/chat-links/${theirs.id}`, { token: first.token });
    expect(notMine.status).toBe(403);
    expect(notMine.body.error_code).toBe("UZ-CONN-008");
    const own = await call("DELETE", `/v1/tenants/me/chat-links/${mine.id}`, { token: first.token });
    expect(own.status, own.text).toBe(204);
    const byAdmin = await call("DELETE", `/v1/tenants/me/chat-links/${theirs.id}`, { token: tenant.apiKey });
    expect(byAdmin.status, byAdmin.text).toBe(204);
    const gone = await call("DELETE", `/v1/tenants/me/chat-links/${theirs.id}`, { token: tenant.apiKey });
    expect(gone.status).toBe(404);
    expect(gone.body.error_code).toBe("UZ-CONN-009");
    // Unlinked again: the next click offers a link and changes nothing.
    const answer = await sendClick(vendor, click(team.id, gateId, message, "approve", "UFIRST"));
    expect(answer.body).toEqual({ status: "ignored", error_code: "UZ-SLK-040" });
    expect(await gateStatus(tenant, gateId)).toMatchObject({ status: "pending" });
  });
});
