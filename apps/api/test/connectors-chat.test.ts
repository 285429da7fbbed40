import type { OutputOf } from "@fleet/contracts";
import type { getConnector } from "@fleet/contracts/connectors/get-connector";
import type { listConnectors } from "@fleet/contracts/connectors/list-connectors";
import type { listWorkspaceConnectors } from "@fleet/contracts/connectors/list-workspace-connectors";
import { connectorOauthStates, connectors, eq } from "@fleet/db";
import type { FakeChatVendor } from "@fleet/testing/fake-chat-vendor";
import { beforeAll, describe, expect, it } from "vitest";
import {
  type Authorization,
  connectSlack as connect,
  connectorPath,
  followCallback,
  startConnect,
  useFakeVendors,
} from "./connector-fixtures.ts";
import { call, seedMember, seedTenant, type Tenant, testApi } from "./harness.ts";

// Both vendors, as every connectors file runs them: the catalog lists the API-key provider too.
const fakeVendors = useFakeVendors();
let vendor: FakeChatVendor;
beforeAll(() => {
  vendor = fakeVendors.chat();
});

type State = OutputOf<typeof getConnector>;
const base = connectorPath;
const connectSlack = (tenant: Tenant, team?: { id: string; name: string }) => connect(vendor, tenant, team);

describe("connector catalog", () => {
  it("lists the chat provider, configured; connected once a workspace connects it", async () => {
    const tenant = await seedTenant();
    const catalog = await call<OutputOf<typeof listConnectors>>("GET", "/v1/connectors", {
      token: tenant.apiKey,
    });
    expect(catalog.status, catalog.text).toBe(200);
    expect(catalog.body.items).toEqual([
      { id: "slack", display_name: "Slack", archetype: "chat", configured: true, connected: false },
      { id: "datadog", display_name: "Datadog", archetype: "api_key", configured: true, connected: false },
    ]);
    const listed = await call<OutputOf<typeof listWorkspaceConnectors>>(
      "GET",
      `/v1/workspaces/${tenant.workspaceId}/connectors`,
      { token: tenant.apiKey },
    );
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([
      { id: "slack", display_name: "Slack", archetype: "chat", configured: true, connected: false },
      { id: "datadog", display_name: "Datadog", archetype: "api_key", configured: true, connected: false },
    ]);
    await connectSlack(tenant);
    const after = await call<OutputOf<typeof listConnectors>>("GET", "/v1/connectors", {
      token: tenant.apiKey,
    });
    expect(after.body.items[0]!.connected).toBe(true);
    const listedAfter = await call<OutputOf<typeof listWorkspaceConnectors>>(
      "GET",
      `/v1/workspaces/${tenant.workspaceId}/connectors`,
      { token: tenant.apiKey },
    );
    expect(listedAfter.body[0]!.connected).toBe(true);
  });

  it("answers 404 UZ-CONN-004 for a provider the deployment does not offer", async () => {
    const tenant = await seedTenant();
    for (const [method, path] of [
      ["POST", `/v1/workspaces/${tenant.workspaceId}/connectors/nope/connect`],
      ["GET", `/v1/workspaces/${tenant.workspaceId}/connectors/nope`],
      ["DELETE", `/v1/workspaces/${tenant.workspaceId}/connectors/nope`],
      ["GET", "/v1/connectors/nope/callback?code=x&state=y"],
    ] as const) {
      const response = await call(method, path, { token: tenant.apiKey });
      expect(response.status, `${method} ${path}`).toBe(404);
      expect(response.body.error_code).toBe("UZ-CONN-004");
    }
  });
});

describe("connecting the chat provider", () => {
  it("connects through the vendor's consent: token sealed, never answered or logged; status names the team", async () => {
    const api = await testApi();
    const tenant = await seedTenant();
    const started = await startConnect(tenant);
    const authorize = new URL(started.authorize_url);
    expect(`${authorize.origin}${authorize.pathname}`).toBe(`${vendor.url}/oauth/v2/authorize`);
    expect(authorize.searchParams.get("state")).toBe(started.state);
    expect(authorize.searchParams.get("client_id")).toBe(vendor.clientId);
    expect(authorize.searchParams.get("redirect_uri")).toBe(
      `${api.config.consoleUrl}/v1/connectors/slack/callback`,
    );
    expect(started.expires_at - Date.now()).toBeGreaterThan(590_000);
    expect(started.expires_at - Date.now()).toBeLessThanOrEqual(600_000);

    const team = { id: `T-${tenant.tenantId}`, name: "Acme chat" };
    const callback = await followCallback(vendor.consent(started.authorize_url, team));
    expect(callback.status).toBe(303);
    expect(callback.headers.get("location")).toBe(
      `${api.config.consoleUrl}/connectors?workspace=${tenant.workspaceId}&connected=slack`,
    );
    const callbackText = await callback.text();
    const token = vendor.tokens.at(-1)!;
    expect(callbackText).not.toContain(token);

    const status = await call<State>("GET", base(tenant), { token: tenant.apiKey });
    expect(status.status, status.text).toBe(200);
    expect(status.body).toMatchObject({ provider: "slack", status: "connected", team });
    expect(status.text).not.toContain(token);

    const [row] = await api.database.db
      .select()
      .from(connectors)
      .where(eq(connectors.workspaceId, tenant.workspaceId));
    expect(JSON.stringify(row)).not.toContain(token);
    expect(row!.connectedBy).toMatch(/^api_key:/);
    expect(api.logs.join("\n")).not.toContain(token);
    expect(api.logs.join("\n")).not.toContain(vendor.clientSecret);
  });

  it("refuses a forged, tampered, reused or expired state, changing nothing", async () => {
    const api = await testApi();
    const tenant = await seedTenant();
    const started = await startConnect(tenant);
    const [payload, mac] = started.state.split(".") as [string, string];
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString()) as Record<string, unknown>;
    const other = await seedTenant();
    const forgedPayload = Buffer.from(JSON.stringify({ ...claims, w: other.workspaceId })).toString(
      "base64url",
    );
    for (const state of [`${forgedPayload}.${mac}`, `${payload}.${mac.slice(0, -2)}AA`, "not-a-state", ""]) {
      const callbackUrl = new URL(vendor.consent(started.authorize_url));
      callbackUrl.searchParams.set("state", state);
      const response = await followCallback(callbackUrl.toString());
      expect(response.status, state).toBe(400);
      expect(((await response.json()) as { error_code: string }).error_code).toBe("UZ-CONN-001");
    }
    // The genuine state still works once, and only once.
    const first = await followCallback(vendor.consent(started.authorize_url));
    expect(first.status).toBe(303);
    const again = await followCallback(vendor.consent(started.authorize_url));
    expect(again.status).toBe(400);

    // An expired state (its row past its time) is refused too.
    const stale = await startConnect(other);
    const nonce = JSON.parse(Buffer.from(stale.state.split(".")[0]!, "base64url").toString()).n as string;
    await api.database.db
      .update(connectorOauthStates)
      .set({ expiresAt: Date.now() - 1 })
      .where(eq(connectorOauthStates.nonce, nonce));
    const expired = await followCallback(vendor.consent(stale.authorize_url));
    expect(expired.status).toBe(400);
    const status = await call<State>("GET", `/v1/workspaces/${other.workspaceId}/connectors/slack`, {
      token: other.apiKey,
    });
    expect(status.body.status).toBe("not_connected");
  });

  it("spends a state once when two callbacks race with it", async () => {
    const tenant = await seedTenant();
    const started = await startConnect(tenant);
    const urls = [vendor.consent(started.authorize_url), vendor.consent(started.authorize_url)];
    const answers = await Promise.all(urls.map((url) => followCallback(url)));
    expect(answers.map((answer) => answer.status).sort()).toEqual([303, 400]);
  });

  it("sends a person who declined back to the console, with nothing stored", async () => {
    const api = await testApi();
    const tenant = await seedTenant();
    const started = await startConnect(tenant);
    const declined = await followCallback(
      `${api.baseUrl}/v1/connectors/slack/callback?error=access_denied&state=${encodeURIComponent(started.state)}`,
    );
    expect(declined.status).toBe(303);
    expect(declined.headers.get("location")).toContain("declined=slack");
    const status = await call<State>("GET", base(tenant), { token: tenant.apiKey });
    expect(status.body.status).toBe("not_connected");
  });

  it("answers 502 UZ-SLK-022 when the vendor refuses the code, 502 UZ-CONN-003 when it does not answer", async () => {
    const tenant = await seedTenant();
    vendor.failNext("oauth.v2.access", 1, "error");
    const refused = await followCallback(vendor.consent((await startConnect(tenant)).authorize_url));
    expect(refused.status).toBe(502);
    expect(((await refused.json()) as { error_code: string }).error_code).toBe("UZ-SLK-022");
    vendor.failNext("oauth.v2.access", 1, "hang");
    const timedOut = await followCallback(vendor.consent((await startConnect(tenant)).authorize_url));
    expect(timedOut.status).toBe(502);
    expect(((await timedOut.json()) as { error_code: string }).error_code).toBe("UZ-CONN-003");
    const status = await call<State>("GET", base(tenant), { token: tenant.apiKey });
    expect(status.body.status).toBe("not_connected");
  });

  it("shows reconnect_required once the vendor says the token is revoked, and connected after a reconnect", async () => {
    const tenant = await seedTenant();
    const team = { id: `T-r-${tenant.tenantId}`, name: "Revoked team" };
    await connectSlack(tenant, team);
    vendor.revoke(vendor.tokens.at(-1)!);
    const status = await call<State>("GET", base(tenant), { token: tenant.apiKey });
    expect(status.body).toMatchObject({ status: "reconnect_required", team });
    const listed = await call<OutputOf<typeof listWorkspaceConnectors>>(
      "GET",
      `/v1/workspaces/${tenant.workspaceId}/connectors`,
      { token: tenant.apiKey },
    );
    expect(listed.body[0]!.connected).toBe(false);
    await connectSlack(tenant, team);
    const again = await call<State>("GET", base(tenant), { token: tenant.apiKey });
    expect(again.body.status).toBe("connected");
  });

  it("keeps the stored status when the vendor does not answer the status check", async () => {
    const tenant = await seedTenant();
    await connectSlack(tenant);
    vendor.failNext("auth.test", 1, "hang");
    const status = await call<State>("GET", base(tenant), { token: tenant.apiKey });
    expect(status.status).toBe(200);
    expect(status.body.status).toBe("connected");
  });

  it("disconnects idempotently (204, 204), and the status reads not_connected", async () => {
    const tenant = await seedTenant();
    await connectSlack(tenant);
    for (let i = 0; i < 2; i++) {
      const removed = await call("DELETE", base(tenant), { token: tenant.apiKey });
      expect(removed.status).toBe(204);
    }
    const status = await call<State>("GET", base(tenant), { token: tenant.apiKey });
    expect(status.body).toEqual({
      provider: "slack",
      status: "not_connected",
      team: null,
      connected_at: null,
    });
  });

  it("needs connector:write to connect or disconnect and connector:read to read", async () => {
    const tenant = await seedTenant();
    const reader = await seedMember(tenant, ["connector:read"]);
    const connect = await call("POST", `${base(tenant)}/connect`, { token: reader.token });
    expect(connect.status).toBe(403);
    const removed = await call("DELETE", base(tenant), { token: reader.token });
    expect(removed.status).toBe(403);
    const read = await call<State>("GET", base(tenant), { token: reader.token });
    expect(read.status).toBe(200);
    const writer = await seedMember(tenant, ["connector:write"]);
    const started = await call<Authorization>("POST", `${base(tenant)}/connect`, { token: writer.token });
    expect(started.status).toBe(200);
  });

  it("refuses a team already connected to another workspace", async () => {
    const first = await seedTenant();
    const second = await seedTenant();
    const team = { id: `T-shared-${first.tenantId}`, name: "Shared" };
    await connectSlack(first, team);
    const { authorize_url } = await startConnect(second);
    const response = await followCallback(vendor.consent(authorize_url, team));
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error_code: string }).error_code).toBe("UZ-CONN-001");
  });
});
