import { WEBHOOK_ENDPOINTS_MAX } from "@fleet/contracts";
import type { WebhookEndpointItem } from "@fleet/contracts/webhook-endpoints/webhook-endpoint";
import { describe, expect, it } from "vitest";
import { verify } from "../src/services/webhooks/signature.ts";
import { putPolicy } from "./approval-policy-fixtures.ts";
import { call, seedTenant, type Tenant, useIsolatedApi } from "./harness.ts";
import { endpointPath, ping, settled, subscribe, useLocalReceiver } from "./webhook-delivery-fixtures.ts";
import { endpointsPath } from "./webhook-endpoint-fixtures.ts";

/** The approval policy's escalation URL is the workspace's notice endpoint, delivered through the outbox. */
describe("the notice endpoint (dev mode, so the escalation URL may be the local receiver)", () => {
  useIsolatedApi({ FLEET_DEV_MODE: "true" });
  const local = useLocalReceiver();

  const listed = async (owner: Tenant) => {
    const page = await call<{ items: WebhookEndpointItem[] }>("GET", `${endpointsPath(owner)}?limit=100`, {
      token: owner.apiKey,
    });
    expect(page.status, page.text).toBe(200);
    return page.body.items;
  };
  const noticeOf = async (owner: Tenant) => (await listed(owner)).find((item) => item.managed_by !== null);
  const setUrl = async (owner: Tenant, url: string | null) => {
    const put = await putPolicy(owner, { rules: [], escalation_webhook_url: url });
    expect(put.status, put.text).toBe(200);
  };

  it("follows the policy's URL: made, moved, kept by its id, removed with null", async () => {
    const receiver = local();
    const owner = await seedTenant();
    expect(await noticeOf(owner)).toBeUndefined();
    await setUrl(owner, `${receiver.url}/first`);
    const made = (await noticeOf(owner))!;
    expect(made).toMatchObject({
      url: `${receiver.url}/first`,
      event_types: ["gate.escalated", "budget.threshold_crossed"],
      fleet_id: null,
      enabled: true,
      managed_by: "approval_policy",
      secret_created_at: null,
      previous_secret_expires_at: null,
    });
    await setUrl(owner, `${receiver.url}/first`);
    expect((await noticeOf(owner))!.updated_at).toBe(made.updated_at);
    await setUrl(owner, `${receiver.url}/moved`);
    const moved = (await noticeOf(owner))!;
    expect(moved.id).toBe(made.id);
    expect(moved.url).toBe(`${receiver.url}/moved`);
    await setUrl(owner, null);
    expect(await noticeOf(owner)).toBeUndefined();
    const gone = await call("GET", endpointPath(owner, made.id), { token: owner.apiKey });
    expect(gone.status).toBe(404);
  });

  it("refuses changes the policy owns (409 UZ-WEBHOOK-012, nothing changed); enabling and disabling it are done here", async () => {
    const receiver = local();
    const owner = await seedTenant();
    await setUrl(owner, receiver.url);
    const notice = (await noticeOf(owner))!;
    const path = endpointPath(owner, notice.id);
    for (const body of [
      { url: `${receiver.url}/elsewhere` },
      { event_types: ["gate.opened"] },
      { description: "mine" },
      { fleet_id: null },
      { enabled: false, url: `${receiver.url}/elsewhere` },
    ]) {
      const refused = await call("PATCH", path, { token: owner.apiKey, body });
      expect(refused.status, JSON.stringify(body)).toBe(409);
      expect(refused.body).toMatchObject({ error_code: "UZ-WEBHOOK-012", current_state: "managed" });
    }
    for (const [method, suffix] of [
      ["DELETE", ""],
      ["POST", "/rotate-secret"],
    ] as const) {
      const refused = await call(method, `${path}${suffix}`, { token: owner.apiKey });
      expect(refused.status, `${method} ${suffix}`).toBe(409);
      expect(refused.body.error_code).toBe("UZ-WEBHOOK-012");
    }
    expect(await noticeOf(owner)).toEqual(notice);
    const off = await call<WebhookEndpointItem>("PATCH", path, {
      token: owner.apiKey,
      body: { enabled: false },
    });
    expect(off.status, off.text).toBe(200);
    expect(off.body.enabled).toBe(false);
    // A new URL from the policy does not undo a person's disable.
    await setUrl(owner, `${receiver.url}/moved`);
    expect((await noticeOf(owner))!.enabled).toBe(false);
  });

  it("counts against no limit: the workspace still makes all its own endpoints beside it", {
    timeout: 60_000,
  }, async () => {
    const receiver = local();
    const owner = await seedTenant();
    await setUrl(owner, receiver.url);
    for (let i = 0; i < WEBHOOK_ENDPOINTS_MAX; i++)
      await subscribe(owner, `${receiver.url}/${i}`, ["gate.opened"]);
    expect(await listed(owner)).toHaveLength(WEBHOOK_ENDPOINTS_MAX + 1);
    const over = await call("POST", endpointsPath(owner), {
      token: owner.apiKey,
      body: { url: `${receiver.url}/over`, event_types: ["gate.opened"] },
    });
    expect(over.status).toBe(409);
    expect(over.body.error_code).toBe("UZ-WEBHOOK-009");
  });

  it("signs with the notice secret in today's format; without one the attempt fails and waits to retry", {
    timeout: 60_000,
  }, async () => {
    const receiver = local();
    const owner = await seedTenant();
    await setUrl(owner, `${receiver.url}/notices`);
    const notice = (await noticeOf(owner))!;

    // No notice secret yet: nothing unsigned goes out.
    const unsigned = (await ping(owner, notice.id)).body;
    const failed = await settled(owner, notice.id, unsigned.id, "pending");
    expect(failed.attempts[0]).toMatchObject({ status_code: null, error: "no_notice_secret" });
    expect(receiver.received.filter((d) => d.path.endsWith("/notices"))).toHaveLength(0);

    const minted = await call<{ secret: string }>(
      "POST",
      `/v1/workspaces/${owner.workspaceId}/notice-secret`,
      {
        token: owner.apiKey,
      },
    );
    expect(minted.status, minted.text).toBe(201);
    const sent = (await ping(owner, notice.id)).body;
    const delivery = await receiver.waitFor((d) => d.path.endsWith("/notices") && d.body.includes(sent.id));
    const headers = {
      timestamp: String(delivery.headers["x-signature-timestamp"]),
      signature: String(delivery.headers["x-signature"]),
    };
    expect(verify(minted.body.secret, headers, delivery.body, Date.now())).toBe("valid");
    expect(delivery.headers["webhook-signature"]).toBeUndefined();
    expect(JSON.parse(delivery.body)).toEqual({ type: "ping", id: sent.id, at: sent.created_at });
    expect(delivery.headers["user-agent"]).toBe("fleet-control-plane/ping");
    await settled(owner, notice.id, sent.id, "succeeded");
  });
});
