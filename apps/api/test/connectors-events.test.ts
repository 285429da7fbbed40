import type { OutputOf } from "@fleet/contracts";
import type { getConnector } from "@fleet/contracts/connectors/get-connector";
import type { listRoutes } from "@fleet/contracts/connectors/list-routes";
import { chatMessages, eq, fleetEvents } from "@fleet/db";
import { deliver, type FakeChatVendor, signDelivery } from "@fleet/testing/fake-chat-vendor";
import { beforeAll, describe, expect, it } from "vitest";
import { connectorPath, connectSlack, useFakeVendor } from "./connector-fixtures.ts";
import { labelledFleet, uniqueLabel } from "./fleet-fixtures.ts";
import { call, callAt, seedTenant, startApi, type Tenant, testApi } from "./harness.ts";
import { acquire, enrollRunner, report } from "./runner-fixtures.ts";

const fakeVendor = useFakeVendor();
let vendor: FakeChatVendor;
let apiUrl: string;
beforeAll(async () => {
  vendor = fakeVendor();
  apiUrl = (await testApi()).baseUrl;
});

let counter = 0;
const eventId = () => `Ev${process.pid}x${++counter}`;

/** A tenant connected in a team of its own, with a fleet routed from channel C1 and a runner for it. */
async function routedFleet() {
  const tenant = await seedTenant();
  const team = { id: `T-${tenant.tenantId}`, name: "Events team" };
  await connectSlack(vendor, tenant, team);
  const label = uniqueLabel();
  const fleetId = await labelledFleet(tenant, label);
  const routed = await call("PUT", `${connectorPath(tenant)}/routes/C1`, {
    token: tenant.apiKey,
    body: { fleet_id: fleetId },
  });
  expect(routed.status, routed.text).toBe(200);
  const runner = await enrollRunner({ labels: [label] });
  return { tenant, team, fleetId, runner };
}

function mention(teamId: string, text: string, extra: Record<string, unknown> = {}) {
  const ts = `${Math.floor(Date.now() / 1000)}.${String(++counter).padStart(6, "0")}`;
  return {
    token: "legacy",
    team_id: teamId,
    api_app_id: "AFAKE",
    type: "event_callback",
    event_id: eventId(),
    event_time: Math.floor(Date.now() / 1000),
    authorizations: [{ team_id: teamId, is_bot: true }],
    event: {
      type: "app_mention",
      user: "U42",
      text: `<@UBOT> ${text}`,
      ts,
      channel: "C1",
      event_ts: ts,
      ...extra,
    },
  };
}

async function eventsOf(_tenant: Tenant, fleetId: string) {
  const api = await testApi();
  return api.database.db.select().from(fleetEvents).where(eq(fleetEvents.fleetId, fleetId));
}

describe("events ingress signature", () => {
  const verification = { type: "url_verification", token: "legacy", challenge: "chal-123" };

  it("answers url_verification with the challenge when signed within ±299 s", async () => {
    for (const offsetSeconds of [0, 299, -299]) {
      const answer = await deliver(vendor, apiUrl, verification, { offsetSeconds });
      expect(answer.status, String(offsetSeconds)).toBe(200);
      expect(answer.body).toEqual({ challenge: "chal-123" });
    }
  });

  it("refuses a timestamp ±301 s away (401 UZ-SLK-011), a tampered body or a wrong signature (401 UZ-SLK-010)", async () => {
    for (const offsetSeconds of [301, -301]) {
      const answer = await deliver(vendor, apiUrl, verification, { offsetSeconds });
      expect(answer.status).toBe(401);
      expect(answer.body.error_code).toBe("UZ-SLK-011");
    }
    const tampered = await deliver(vendor, apiUrl, verification, { tamper: true });
    expect(tampered.status).toBe(401);
    expect(tampered.body.error_code).toBe("UZ-SLK-010");
    const ts = Math.floor(Date.now() / 1000);
    const forged = await deliver(vendor, apiUrl, verification, {
      signature: signDelivery("not-the-secret", ts, JSON.stringify(verification)),
    });
    expect(forged.status).toBe(401);
    expect(forged.body.error_code).toBe("UZ-SLK-010");
    const unsigned = await call("POST", "/v1/connectors/slack/events", { body: verification });
    expect(unsigned.status).toBe(401);
    expect(unsigned.body.error_code).toBe("UZ-SLK-010");
    // A deployment with no signing secret fails closed: nothing can verify, so nothing is genuine.
    const shared = await testApi();
    const unconfigured = await startApi({ DATABASE_URL: shared.config.databaseUrl });
    try {
      const answer = await callAt(unconfigured.baseUrl, "POST", "/v1/connectors/slack/events", {
        body: verification,
        headers: {
          "x-slack-request-timestamp": String(ts),
          "x-slack-signature": signDelivery(vendor.signingSecret, ts, JSON.stringify(verification)),
        },
      });
      expect(answer.status, answer.text).toBe(401);
      expect(answer.body.error_code).toBe("UZ-SLK-010");
    } finally {
      await unconfigured.app.close();
      await unconfigured.database.close();
    }
    // A signature in the body is not a signature.
    const smuggled = await call("POST", "/v1/connectors/slack/events", {
      body: { ...verification, x_slack_signature: "v0=00", x_slack_request_timestamp: String(ts) },
    });
    expect(smuggled.status).toBe(400);
  });

  it("acknowledges an event from a team no workspace connected with 200 UZ-SLK-020, and ignores it", async () => {
    const answer = await deliver(vendor, apiUrl, mention("T-nobody", "hello"));
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ status: "ignored", error_code: "UZ-SLK-020" });
  });
});

describe("form-encoded bodies", () => {
  it("are read on the events ingress only (the vendor's interactions), each field once", async () => {
    const ts = Math.floor(Date.now() / 1000);
    const tenant = await seedTenant();
    const post = (path: string, body: string, signed = true) =>
      fetch(`${apiUrl}${path}`, {
        method: "POST",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          ...(signed
            ? {
                "x-slack-request-timestamp": String(ts),
                "x-slack-signature": signDelivery(vendor.signingSecret, ts, body),
              }
            : { authorization: `Bearer ${tenant.apiKey}` }),
        },
        body,
      });
    const challenge = new URLSearchParams({ type: "url_verification", challenge: "c-form" }).toString();
    const verified = await post("/v1/connectors/slack/events", challenge);
    expect(verified.status).toBe(200);
    expect(await verified.json()).toEqual({ challenge: "c-form" });
    const twice = await post("/v1/connectors/slack/events", "payload=%7B%7D&payload=%7B%7D");
    expect(twice.status).toBe(400);
    expect(await twice.json()).toMatchObject({ error_code: "UZ-REQ-001" });
    const elsewhere = await post("/v1/workspaces", "name=form-made", false);
    expect(elsewhere.status).toBe(415);
    expect(elsewhere.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    expect(await elsewhere.json()).toMatchObject({ error_code: "UZ-REQ-003" });
  });
});

describe("a message to the app", () => {
  it("becomes a chat event of the routed fleet, and the fleet's answer is posted in the thread", async () => {
    const { team, fleetId, runner, tenant } = await routedFleet();
    const delivery = mention(team.id, "what is the weather?");
    const answer = await deliver(vendor, apiUrl, delivery);
    expect(answer.status).toBe(200);
    expect(answer.body.status).toBe("ok");
    const events = await eventsOf(tenant, fleetId);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      eventType: "chat",
      actor: "webhook:slack:U42",
      requestJson: JSON.stringify({ message: "what is the weather?" }),
    });

    const leased = await acquire(runner);
    expect(leased.body.lease?.event_id).toBe(events[0]!.id);
    const reported = await report(runner, leased.body.lease!, { response_text: "Sunny, 21 degrees." });
    expect(reported.status, reported.text).toBe(200);
    // The answer, then a link to the run's page in the console.
    const consoleUrl = (await testApi()).config.consoleUrl;
    const thread = `Sunny, 21 degrees.\n\n<${consoleUrl}/fleets/${fleetId}/runs/${events[0]!.id}?workspace=${tenant.workspaceId}|Open the run in the console>`;
    await vendor.waitFor(() => vendor.posted.some((m) => m.text === thread));
    const posted = vendor.posted.find((m) => m.text === thread)!;
    expect(posted).toMatchObject({ channel: "C1", thread_ts: delivery.event.ts });
  });

  it("escapes the fleet's answer by the vendor's rules before posting it", async () => {
    const { team, runner } = await routedFleet();
    await deliver(vendor, apiUrl, mention(team.id, "status?"));
    const leased = await acquire(runner);
    const hostile = "<!channel> done: <https://evil.example|your invoice> & more";
    const reported = await report(runner, leased.body.lease!, { response_text: hostile });
    expect(reported.status, reported.text).toBe(200);
    const escaped = "&lt;!channel&gt; done: &lt;https://evil.example|your invoice&gt; &amp; more";
    await vendor.waitFor(() => vendor.posted.some((m) => m.text.startsWith(`${escaped}\n\n<http`)));
    expect(vendor.posted.some((m) => m.text.includes("<!channel>"))).toBe(false);
  });

  it("answers a repeated delivery `duplicate`, with no second event", async () => {
    const { team, fleetId, tenant } = await routedFleet();
    const delivery = mention(team.id, "once");
    const body = JSON.stringify(delivery);
    const ts = Math.floor(Date.now() / 1000);
    const headers = {
      "content-type": "application/json",
      "x-slack-request-timestamp": String(ts),
      "x-slack-signature": signDelivery(vendor.signingSecret, ts, body),
    };
    const sends = await Promise.all(
      [0, 1, 2].map(() => fetch(`${apiUrl}/v1/connectors/slack/events`, { method: "POST", headers, body })),
    );
    const answers = await Promise.all(sends.map((send) => send.json() as Promise<{ status: string }>));
    expect(sends.map((send) => send.status)).toEqual([200, 200, 200]);
    expect(answers.map((a) => a.status).sort()).toEqual(["duplicate", "duplicate", "ok"]);
    expect(await eventsOf(tenant, fleetId)).toHaveLength(1);
  });

  it("ignores messages in a channel with no route, from bots, and without text", async () => {
    const { team, fleetId, tenant } = await routedFleet();
    for (const delivery of [
      mention(team.id, "elsewhere", { channel: "C-unrouted" }),
      mention(team.id, "from a bot", { bot_id: "B1" }),
      mention(team.id, ""),
    ]) {
      const answer = await deliver(vendor, apiUrl, delivery);
      expect(answer.status).toBe(200);
      expect(answer.body.status).toBe("ignored");
    }
    expect(await eventsOf(tenant, fleetId)).toHaveLength(0);
  });

  it("retries a failed answer with backoff (UZ-SLK-030 logged) and never fails the run", async () => {
    const api = await testApi();
    const { team, runner } = await routedFleet();
    await deliver(vendor, apiUrl, mention(team.id, "retry me"));
    const before = vendor.calls.get("chat.postMessage") ?? 0;
    vendor.failNext("chat.postMessage", 2, "server_error");
    const leased = await acquire(runner);
    const reported = await report(runner, leased.body.lease!, { response_text: "after retries" });
    expect(reported.status).toBe(200);
    expect(reported.body.outcome).toBe("succeeded");
    await vendor.waitFor(() => vendor.posted.some((m) => m.text.startsWith("after retries\n\n")), 20_000);
    expect((vendor.calls.get("chat.postMessage") ?? 0) - before).toBeGreaterThanOrEqual(3);
    expect(api.logs.some((line) => line.includes("UZ-SLK-030"))).toBe(true);
    // The vendor saw the post a moment before the outbox recorded it.
    const rowOf = async () =>
      (
        await api.database.db
          .select()
          .from(chatMessages)
          .where(eq(chatMessages.fleetEventId, leased.body.lease!.event_id))
      )[0]!;
    for (let i = 0; i < 100 && (await rowOf()).state !== "done"; i++)
      await new Promise((r) => setTimeout(r, 50));
    expect(await rowOf()).toMatchObject({ state: "done", attempts: 3 });
    expect(api.logs.join("\n")).not.toContain(vendor.tokens.at(-1)!);
  }, 30_000);

  it("posts a note when the fleet could not answer", async () => {
    const { team, runner } = await routedFleet();
    await deliver(vendor, apiUrl, mention(team.id, "fail please"));
    const leased = await acquire(runner);
    await report(runner, leased.body.lease!, { outcome: "fleet_error", failure_label: "model_error" });
    await vendor.waitFor(() => vendor.posted.some((m) => m.text.includes("model_error")));
  });

  it("marks the connector reconnect_required when the vendor says the app was uninstalled", async () => {
    const { team, tenant } = await routedFleet();
    const answer = await deliver(vendor, apiUrl, {
      type: "event_callback",
      team_id: team.id,
      event_id: eventId(),
      event: { type: "app_uninstalled" },
    });
    expect(answer.body.status).toBe("ok");
    vendor.failNext("auth.test", 1, "error");
    const status = await call<OutputOf<typeof getConnector>>("GET", connectorPath(tenant), {
      token: tenant.apiKey,
    });
    expect(status.body.status).toBe("reconnect_required");
  });
});

describe("channel routes", () => {
  it("are set, replaced, listed and removed (idempotently); removed with the connector", async () => {
    const { tenant, fleetId } = await routedFleet();
    const other = await labelledFleet(tenant, uniqueLabel());
    const replaced = await call("PUT", `${connectorPath(tenant)}/routes/C1`, {
      token: tenant.apiKey,
      body: { fleet_id: other },
    });
    expect(replaced.body).toMatchObject({ channel_id: "C1", fleet_id: other });
    await call("PUT", `${connectorPath(tenant)}/routes/C2`, {
      token: tenant.apiKey,
      body: { fleet_id: fleetId },
    });
    const listed = await call<OutputOf<typeof listRoutes>>("GET", `${connectorPath(tenant)}/routes`, {
      token: tenant.apiKey,
    });
    expect(listed.body.items.map((r) => [r.channel_id, r.fleet_id])).toEqual([
      ["C1", other],
      ["C2", fleetId],
    ]);
    for (let i = 0; i < 2; i++) {
      const removed = await call("DELETE", `${connectorPath(tenant)}/routes/C2`, { token: tenant.apiKey });
      expect(removed.status).toBe(204);
    }
    await call("DELETE", connectorPath(tenant), { token: tenant.apiKey });
    const after = await call<OutputOf<typeof listRoutes>>("GET", `${connectorPath(tenant)}/routes`, {
      token: tenant.apiKey,
    });
    expect(after.body.items).toEqual([]);
  });

  it("refuses a route before the provider is connected, and to another tenant's fleet", async () => {
    const tenant = await seedTenant();
    const fleetId = await labelledFleet(tenant, uniqueLabel());
    const early = await call("PUT", `${connectorPath(tenant)}/routes/C1`, {
      token: tenant.apiKey,
      body: { fleet_id: fleetId },
    });
    expect(early.status).toBe(400);
    expect(early.body.error_code).toBe("UZ-CONN-001");
    const { tenant: connected } = await routedFleet();
    const foreign = await call("PUT", `${connectorPath(connected)}/routes/C9`, {
      token: connected.apiKey,
      body: { fleet_id: fleetId },
    });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error_code).toBe("UZ-FLEET-001");
  });
});
