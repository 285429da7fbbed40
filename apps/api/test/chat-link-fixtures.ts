import type { ChatLink } from "@fleet/contracts";
import { chatLinks } from "@fleet/db";
import { deliver, type FakeChatVendor, type PostedMessage } from "@fleet/testing/fake-chat-vendor";
import { expect } from "vitest";
import { newId } from "../src/runtime/ids.ts";
import { upsertMember } from "../src/services/members/members.ts";
import { issueSession } from "../src/services/sessions/session-tokens.ts";
import { leasedFleet, openGate } from "./approval-fixtures.ts";
import { connectorPath, connectSlack } from "./connector-fixtures.ts";
import { call, type Tenant, testApi } from "./harness.ts";

/** A tenant connected to the fake vendor in a team of its own, a fleet of it routed from a channel. */
export async function routedFleet(vendor: FakeChatVendor, tenant: Tenant) {
  const team = { id: `T-${tenant.tenantId}`, name: "Approvals team" };
  await connectSlack(vendor, tenant, team);
  const leased = await leasedFleet(tenant);
  const channel = `C${tenant.tenantId.replaceAll("-", "").slice(0, 10)}`;
  const routed = await call("PUT", `${connectorPath(tenant)}/routes/${channel}`, {
    token: tenant.apiKey,
    body: { fleet_id: leased.fleetId },
  });
  expect(routed.status, routed.text).toBe(200);
  return { team, leased, channel };
}

export function hasButtonFor(message: PostedMessage, gateId: string): boolean {
  return JSON.stringify(message.blocks ?? []).includes(`"value":"${gateId}"`);
}

/** The gate's message, once the vendor has it. */
export async function postedGate(vendor: FakeChatVendor, gateId: string): Promise<PostedMessage> {
  await vendor.waitFor(() => vendor.posted.some((m) => hasButtonFor(m, gateId)));
  return vendor.posted.find((m) => hasButtonFor(m, gateId))!;
}

let clicks = 0;

/** An interaction payload: `user` of `teamId` clicks Approve or Deny on the gate's message. */
export function click(
  teamId: string,
  gateId: string,
  message: PostedMessage,
  action: "approve" | "deny",
  user = "U7",
  userTeamId?: string,
) {
  return {
    type: "block_actions",
    team: { id: teamId, domain: "fake" },
    user: { id: user, username: "pat", ...(userTeamId === undefined ? {} : { team_id: userTeamId }) },
    api_app_id: "AFAKE",
    container: { type: "message", channel_id: message.channel, message_ts: message.ts },
    channel: { id: message.channel },
    message: { ts: message.ts },
    actions: [
      {
        type: "button",
        action_id: action === "approve" ? "fleet_gate_approve" : "fleet_gate_deny",
        value: gateId,
        action_ts: `${Math.floor(Date.now() / 1000)}.${++clicks}`,
      },
    ],
  };
}

/** Sends the click form-encoded and signed, as the vendor does. */
export async function sendClick(vendor: FakeChatVendor, payload: ReturnType<typeof click>) {
  const api = await testApi();
  return deliver(vendor, api.baseUrl, { payload: JSON.stringify(payload) });
}

/** The newest ephemeral message `user` was shown after `since` messages. */
export async function ephemeralFor(vendor: FakeChatVendor, user: string, since: number) {
  await vendor.waitFor(() => vendor.ephemeral.slice(since).some((m) => m.user === user));
  return vendor.ephemeral
    .slice(since)
    .filter((m) => m.user === user)
    .at(-1)!;
}

/** The one-time link's token in an ephemeral message. */
export function linkToken(text: string): string {
  const url = /<([^|>]+)\|/.exec(text)?.[1];
  expect(url, text).toBeDefined();
  expect(url).toContain("/connect/chat-link?token=");
  return new URL(url!).searchParams.get("token")!;
}

export function redeem(token: string, session: string) {
  return call<ChatLink & { error_code?: string }>("POST", "/v1/users/me/chat-links", {
    token: session,
    body: { token },
  });
}

/** A member of the tenant with these scopes, and a console session token for them. */
export async function consoleMember(tenant: Tenant, scopes: string[]) {
  const api = await testApi();
  const email = `chat-member-${crypto.randomUUID()}@example.test`;
  const { user_id } = await upsertMember(api.app.services, { tenantId: tenant.tenantId, email, scopes });
  const { token } = await issueSession(api.app.services, {
    email,
    tenantId: tenant.tenantId,
    kind: "session",
  });
  return { userId: user_id, token };
}

/**
 * Links chat `user` of the team to the member holding `session`, the way a person does: a click on the
 * gate's message answers with a link, which the member redeems signed in.
 */
export async function linkChatUser(
  vendor: FakeChatVendor,
  teamId: string,
  gateId: string,
  message: PostedMessage,
  user: string,
  session: string,
) {
  const since = vendor.ephemeral.length;
  const unlinked = await sendClick(vendor, click(teamId, gateId, message, "approve", user));
  expect(unlinked.body).toEqual({ status: "ignored", error_code: "UZ-SLK-040" });
  const told = await ephemeralFor(vendor, user, since);
  const linked = await redeem(linkToken(told.text), session);
  expect(linked.status, linked.text).toBe(201);
  return linked.body;
}

/** A gate opened by the routed fleet, posted with its buttons. */
export async function gatePosted(vendor: FakeChatVendor, leased: Awaited<ReturnType<typeof leasedFleet>>) {
  const opened = await openGate(leased);
  expect(opened.status, opened.text).toBe(201);
  return { gateId: opened.body.gate_id, message: await postedGate(vendor, opened.body.gate_id) };
}

/** A chat link of the owner's, written directly: what the security suite's other-tenant check needs. */
export async function chatLinkOf(owner: Tenant): Promise<string> {
  const api = await testApi();
  const id = newId();
  await api.database.db.insert(chatLinks).values({
    id,
    tenantId: owner.tenantId,
    userId: owner.userId,
    provider: "slack",
    teamId: `T-${owner.tenantId}`,
    chatUserId: "UFIXTURE",
    createdAt: Date.now(),
  });
  return id;
}
