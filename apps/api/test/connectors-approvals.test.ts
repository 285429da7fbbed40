import { chatMessages, eq } from "@fleet/db";
import { deliver, type FakeChatVendor, signDelivery } from "@fleet/testing/fake-chat-vendor";
import { beforeAll, describe, expect, it } from "vitest";
import { leasedFleet, openGate } from "./approval-fixtures.ts";
import { RESOLVER } from "./approval-policy-fixtures.ts";
import { click, consoleMember, hasButtonFor, linkChatUser, routedFleet } from "./chat-link-fixtures.ts";
import { connectorPath, useFakeVendor } from "./connector-fixtures.ts";
import { call, seedTenant, sessionFor, type Tenant, testApi } from "./harness.ts";

const fakeVendor = useFakeVendor();
let vendor: FakeChatVendor;
let apiUrl: string;
beforeAll(async () => {
  vendor = fakeVendor();
  apiUrl = (await testApi()).baseUrl;
});

/** A tenant connected to the fake vendor, its fleet leased and routed from a channel of its own, a gate open. */
async function gateInChat(gateFields: Record<string, unknown> = {}) {
  const tenant = await seedTenant();
  const { team, leased, channel } = await routedFleet(vendor, tenant);
  const opened = await openGate(leased, gateFields);
  expect(opened.status, opened.text).toBe(201);
  const gateId = opened.body.gate_id;
  await vendor.waitFor(() => vendor.posted.some((m) => hasButtonFor(m, gateId)));
  const message = vendor.posted.find((m) => hasButtonFor(m, gateId))!;
  expect(message.channel).toBe(channel);
  return { tenant, team, gateId, message, channel, leased };
}

/** Another fleet of the tenant's, leased and routed from `channel` (which then leads to it). */
async function leasedFleetRouted(tenant: Tenant, channel: string) {
  const leased = await leasedFleet(tenant);
  const routed = await call("PUT", `${connectorPath(tenant)}/routes/${channel}`, {
    token: tenant.apiKey,
    body: { fleet_id: leased.fleetId },
  });
  expect(routed.status, routed.text).toBe(200);
  return leased;
}

async function gate(tenant: Tenant, gateId: string) {
  const read = await call("GET", `/v1/workspaces/${tenant.workspaceId}/approvals/${gateId}`, {
    token: tenant.apiKey,
  });
  expect(read.status, read.text).toBe(200);
  return read.body;
}

describe("chat approvals", () => {
  it("posts a new gate with Approve and Deny; a linked member's click decides it as them, and the message shows the outcome", async () => {
    const { tenant, team, gateId, message } = await gateInChat();
    await linkChatUser(vendor, team.id, gateId, message, "U7", await sessionFor(tenant));
    const answer = await deliver(vendor, apiUrl, {
      payload: JSON.stringify(click(team.id, gateId, message, "approve")),
    });
    expect(answer.status).toBe(200);
    expect(answer.body.status).toBe("ok");
    expect(await gate(tenant, gateId)).toMatchObject({
      status: "approved",
      resolved_by: `user:${tenant.userId}`,
    });
    await vendor.waitFor(() =>
      vendor.updated.some((u) => u.ts === message.ts && u.text.startsWith("Approved by <@U7>")),
    );
    const audit = await call<{ items: { target: string; details: Record<string, unknown> }[] }>(
      "GET",
      `/v1/workspaces/${tenant.workspaceId}/audit?action=approval.approve`,
      {
        token: tenant.apiKey,
      },
    );
    expect(JSON.stringify(audit.body)).toContain(`user:${tenant.userId}`);
    // A click asks no reason: its row says so, as every answer's row carries the key.
    expect(audit.body.items[0]).toMatchObject({
      target: `approval_gate:${gateId}`,
      details: { reason: null },
    });
  });

  it("lets the first of two racing clicks win, and ignores a replayed or forged click", async () => {
    const { tenant, team, gateId, message } = await gateInChat();
    const second = await consoleMember(tenant, RESOLVER);
    await linkChatUser(vendor, team.id, gateId, message, "U1", await sessionFor(tenant));
    await linkChatUser(vendor, team.id, gateId, message, "U2", second.token);
    const approve = JSON.stringify(click(team.id, gateId, message, "approve", "U1"));
    const deny = JSON.stringify(click(team.id, gateId, message, "deny", "U2"));
    const ts = Math.floor(Date.now() / 1000);
    const send = (body: string, signature = signDelivery(vendor.signingSecret, ts, body)) =>
      fetch(`${apiUrl}/v1/connectors/slack/events`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "x-slack-request-timestamp": String(ts),
          "x-slack-signature": signature,
        },
        body,
      });
    const racing = await Promise.all([send(approve), send(deny)]);
    const answers = await Promise.all(racing.map((r) => r.json() as Promise<{ status: string }>));
    expect(answers.map((a) => a.status).sort()).toEqual(["ignored", "ok"]);
    const decided = await gate(tenant, gateId);
    expect(["approved", "denied"]).toContain(decided.status);
    expect(decided.resolved_by).toBe(
      decided.status === "approved" ? `user:${tenant.userId}` : `user:${second.userId}`,
    );
    // The winner's exact delivery again: a duplicate, with nothing changed.
    const replay = await send(decided.status === "approved" ? approve : deny);
    expect(((await replay.json()) as { status: string }).status).toBe("duplicate");
    const forged = await send(approve, signDelivery("not-the-secret", ts, approve));
    expect(forged.status).toBe(401);
    expect(await gate(tenant, gateId)).toMatchObject({
      status: decided.status,
      resolved_at: decided.resolved_at,
    });
  });

  it("updates the chat message when the gate is answered in the inbox", async () => {
    const { tenant, gateId, message } = await gateInChat();
    const denied = await call("POST", `/v1/workspaces/${tenant.workspaceId}/approvals/${gateId}/deny`, {
      token: tenant.apiKey,
      body: { reason: "not today" },
    });
    expect(denied.status, denied.text).toBe(200);
    await vendor.waitFor(() =>
      vendor.updated.some((u) => u.ts === message.ts && u.text.startsWith("Denied by api_key:")),
    );
    // A click after the answer changes nothing.
    const late = await deliver(vendor, apiUrl, click(tenant.tenantId, gateId, message, "approve"));
    expect(late.status).toBe(200);
    expect(await gate(tenant, gateId)).toMatchObject({ status: "denied" });
  });

  it("posts a gate only to a channel routed to its own fleet: none for a fleet with no route", async () => {
    const routed = await gateInChat();
    const unrouted = await leasedFleet(routed.tenant);
    const quiet = await openGate(unrouted);
    expect(quiet.status, quiet.text).toBe(201);
    // A later gate of the routed fleet goes out: by then the quiet gate's message would have been queued.
    const leased = await leasedFleetRouted(routed.tenant, routed.channel);
    const loud = await openGate(leased);
    await vendor.waitFor(() => vendor.posted.some((m) => hasButtonFor(m, loud.body.gate_id)));
    const api = await testApi();
    const queued = await api.database.db
      .select({ id: chatMessages.id })
      .from(chatMessages)
      .where(eq(chatMessages.gateId, quiet.body.gate_id));
    expect(queued).toEqual([]);
    expect(vendor.posted.some((m) => hasButtonFor(m, quiet.body.gate_id))).toBe(false);
  });

  it("ignores a click from a team that is not connected (UZ-SLK-020) and on another workspace's gate", async () => {
    const first = await gateInChat();
    const second = await gateInChat();
    const stranger = await deliver(vendor, apiUrl, click("T-nobody", first.gateId, first.message, "approve"));
    expect(stranger.body).toEqual({ status: "ignored", error_code: "UZ-SLK-020" });
    const crossed = await deliver(
      vendor,
      apiUrl,
      click(second.team.id, first.gateId, first.message, "approve"),
    );
    expect(crossed.body.status).toBe("ignored");
    expect(await gate(first.tenant, first.gateId)).toMatchObject({ status: "pending" });
  });

  it("escapes the fleet's text by the vendor's rules: no channel ping, no disguised link beside the buttons", async () => {
    const hostile = "<!channel> wire funds <https://evil.example|see the approved diff> & <@U1>";
    const { message } = await gateInChat({ proposed_action: hostile, action_name: "deploy <!here>" });
    const shown = JSON.stringify(message.blocks) + message.text;
    expect(shown).not.toContain("<!channel>");
    expect(shown).not.toContain("<!here>");
    expect(shown).not.toContain("<https://evil.example");
    expect(shown).toContain(
      "&lt;!channel&gt; wire funds &lt;https://evil.example|see the approved diff&gt; &amp; &lt;@U1&gt;",
    );
    expect(message.text).toContain("deploy &lt;!here&gt;");
  });

  it("links the gate in the console's inbox and the run that waits at it", async () => {
    const { tenant, gateId, message, leased } = await gateInChat();
    const consoleUrl = (await testApi()).config.consoleUrl;
    const shown = JSON.stringify(message.blocks);
    expect(shown).toContain(
      `<${consoleUrl}/approvals?workspace=${tenant.workspaceId}&amp;gate=${gateId}|Open the gate in the console>`,
    );
    expect(shown).toContain(
      `<${consoleUrl}/fleets/${leased.fleetId}/runs/${leased.lease.event_id}?workspace=${tenant.workspaceId}|Open the run>`,
    );
  });
});
