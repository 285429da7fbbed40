import type { OutputOf } from "@fleet/contracts";
import type { getConnector } from "@fleet/contracts/connectors/get-connector";
import type { listWorkspaceConnectors } from "@fleet/contracts/connectors/list-workspace-connectors";
import { connectors, eq } from "@fleet/db";
import type { FakeKeyVendor } from "@fleet/testing/fake-key-vendor";
import { beforeAll, describe, expect, it } from "vitest";
import { connectorPath, useFakeVendors } from "./connector-fixtures.ts";
import { call, seedMember, seedTenant, type Tenant, testApi } from "./harness.ts";

// Both vendors, as every connectors file runs them: a key sent to the chat provider is refused here too.
const fakeVendors = useFakeVendors();
let keyVendor: FakeKeyVendor;
beforeAll(() => {
  keyVendor = fakeVendors.keys();
});

type State = OutputOf<typeof getConnector>;
const base = connectorPath;

describe("connecting the API-key provider", () => {
  const keyPath = (tenant: Tenant) => `/v1/workspaces/${tenant.workspaceId}/connectors/datadog`;
  const rowsOf = async (tenant: Tenant) => {
    const api = await testApi();
    return api.database.db.select().from(connectors).where(eq(connectors.workspaceId, tenant.workspaceId));
  };

  it("probes a good key with the vendor, seals it, never answers or logs it; status, catalog and delete work", async () => {
    const api = await testApi();
    const tenant = await seedTenant();
    const key = keyVendor.issueKey();
    const connected = await call<State>("POST", `${keyPath(tenant)}/connect`, {
      token: tenant.apiKey,
      body: { api_key: key },
    });
    expect(connected.status, connected.text).toBe(200);
    expect(connected.body).toMatchObject({ provider: "datadog", status: "connected", team: null });
    expect(connected.text).not.toContain(key);
    expect(keyVendor.checked).toContain(key);

    const [row] = await rowsOf(tenant);
    expect(row).toMatchObject({ provider: "datadog", status: "connected", teamId: null });
    expect(JSON.stringify(row)).not.toContain(key);
    expect(row!.connectedBy).toMatch(/^api_key:/);

    const status = await call<State>("GET", keyPath(tenant), { token: tenant.apiKey });
    expect(status.status, status.text).toBe(200);
    expect(status.body).toMatchObject({ provider: "datadog", status: "connected", team: null });
    expect(status.text).not.toContain(key);
    // The status read re-checked the stored key with the vendor: the sealed key opens to the same key.
    expect(keyVendor.checked.at(-1)).toBe(key);

    const listed = await call<OutputOf<typeof listWorkspaceConnectors>>(
      "GET",
      `/v1/workspaces/${tenant.workspaceId}/connectors`,
      { token: tenant.apiKey },
    );
    expect(listed.body.find((item) => item.id === "datadog")!.connected).toBe(true);
    const audit = await call<{ items: { action: string; target: string }[] }>(
      "GET",
      `/v1/workspaces/${tenant.workspaceId}/audit?action=connector.connect`,
      { token: tenant.apiKey },
    );
    expect(audit.status, audit.text).toBe(200);
    expect(audit.body.items.map((item) => item.target)).toContain("connector:datadog");
    expect(audit.text).not.toContain(key);
    expect(api.logs.join("\n")).not.toContain(key);

    // The vendor revokes the key: the status read says reconnect_required; a new key connects again.
    keyVendor.revoke(key);
    const revoked = await call<State>("GET", keyPath(tenant), { token: tenant.apiKey });
    expect(revoked.body.status).toBe("reconnect_required");
    const fresh = keyVendor.issueKey();
    const again = await call<State>("POST", `${keyPath(tenant)}/connect`, {
      token: tenant.apiKey,
      body: { api_key: fresh },
    });
    expect(again.status, again.text).toBe(200);
    expect((await rowsOf(tenant)).length).toBe(1);
    expect((await call<State>("GET", keyPath(tenant), { token: tenant.apiKey })).body.status).toBe(
      "connected",
    );

    for (let i = 0; i < 2; i++) {
      const removed = await call("DELETE", keyPath(tenant), { token: tenant.apiKey });
      expect(removed.status).toBe(204);
    }
    expect(await rowsOf(tenant)).toEqual([]);
    const after = await call<State>("GET", keyPath(tenant), { token: tenant.apiKey });
    expect(after.body).toEqual({
      provider: "datadog",
      status: "not_connected",
      team: null,
      connected_at: null,
    });
    expect(api.logs.join("\n")).not.toContain(fresh);
  });

  it("answers 400 UZ-CONN-005 for a key the vendor refuses, storing nothing", async () => {
    const api = await testApi();
    const tenant = await seedTenant();
    const bad = "0123456789abcdef0123456789abcdef";
    const refused = await call("POST", `${keyPath(tenant)}/connect`, {
      token: tenant.apiKey,
      body: { api_key: bad },
    });
    expect(refused.status, refused.text).toBe(400);
    expect(refused.headers.get("content-type")).toContain("application/problem+json");
    expect(refused.body.error_code).toBe("UZ-CONN-005");
    expect(refused.text).not.toContain(bad);
    expect(keyVendor.checked).toContain(bad);
    expect(await rowsOf(tenant)).toEqual([]);
    expect(api.logs.join("\n")).not.toContain(bad);
    // A connected key is not replaced by a refused one.
    const good = keyVendor.issueKey();
    expect(
      (await call("POST", `${keyPath(tenant)}/connect`, { token: tenant.apiKey, body: { api_key: good } }))
        .status,
    ).toBe(200);
    const [before] = await rowsOf(tenant);
    const again = await call("POST", `${keyPath(tenant)}/connect`, {
      token: tenant.apiKey,
      body: { api_key: bad },
    });
    expect(again.body.error_code).toBe("UZ-CONN-005");
    const [after] = await rowsOf(tenant);
    expect(after).toEqual(before);
  });

  it("answers 502 UZ-CONN-003 when the vendor fails or does not answer in time, storing nothing", async () => {
    const tenant = await seedTenant();
    const key = keyVendor.issueKey();
    for (const failure of ["server_error", "hang"] as const) {
      keyVendor.failNext(1, failure);
      const response = await call("POST", `${keyPath(tenant)}/connect`, {
        token: tenant.apiKey,
        body: { api_key: key },
      });
      expect(response.status, `${failure}: ${response.text}`).toBe(502);
      expect(response.body.error_code).toBe("UZ-CONN-003");
      expect(await rowsOf(tenant)).toEqual([]);
    }
    // A connected key whose check does not answer keeps its stored status.
    await call("POST", `${keyPath(tenant)}/connect`, { token: tenant.apiKey, body: { api_key: key } });
    keyVendor.failNext(1, "hang");
    const status = await call<State>("GET", keyPath(tenant), { token: tenant.apiKey });
    expect(status.status).toBe(200);
    expect(status.body.status).toBe("connected");
  });

  it("refuses a missing or hostile key with 400 before asking the vendor, storing nothing", async () => {
    const tenant = await seedTenant();
    const asked = keyVendor.checked.length;
    const hostile: unknown[] = [
      undefined,
      null,
      "",
      "short",
      "a".repeat(257),
      "x".repeat(4_000),
      "key with spaces inside it",
      "good-key-but\r\nX-Injected: 1",
      "nul\u0000inside-the-key",
      "lone\ud800surrogate-key",
      "ключ-не-ascii-ключ",
      12345678901,
      { api_key: "nested" },
      ["0123456789abcdef"],
    ];
    for (const value of hostile) {
      const response = await call("POST", `${keyPath(tenant)}/connect`, {
        token: tenant.apiKey,
        body: value === undefined ? {} : { api_key: value },
      });
      expect(response.status, `${JSON.stringify(value)?.slice(0, 40)}: ${response.text.slice(0, 200)}`).toBe(
        400,
      );
      expect(response.body.error_code).toMatch(/^UZ-REQ-/);
    }
    // A key over the route's body ceiling is refused before it is read.
    const huge = await call("POST", `${keyPath(tenant)}/connect`, {
      token: tenant.apiKey,
      body: { api_key: "x".repeat(1_000_000) },
    });
    expect(huge.status).toBe(413);
    expect(huge.body.error_code).toBe("UZ-REQ-006");
    // A body that is not an object at all.
    const notObject = await call("POST", `${keyPath(tenant)}/connect`, {
      token: tenant.apiKey,
      rawBody: "null",
      headers: { "content-type": "application/json" },
    });
    expect(notObject.status).toBe(400);
    expect(keyVendor.checked.length).toBe(asked);
    expect(await rowsOf(tenant)).toEqual([]);
    // The chat provider takes no key.
    const slack = await call("POST", `${base(tenant)}/connect`, {
      token: tenant.apiKey,
      body: { api_key: keyVendor.issueKey() },
    });
    expect(slack.status).toBe(400);
    expect(slack.body.error_code).toBe("UZ-REQ-001");
  });

  it("has no chat routes, callback or events: 400 UZ-CONN-001", async () => {
    const tenant = await seedTenant();
    const routes = await call("GET", `${keyPath(tenant)}/routes`, { token: tenant.apiKey });
    expect(routes.status).toBe(400);
    expect(routes.body.error_code).toBe("UZ-CONN-001");
    const callback = await call("GET", "/v1/connectors/datadog/callback?code=x&state=y");
    expect(callback.status).toBe(400);
    expect(callback.body.error_code).toBe("UZ-CONN-001");
  });

  it("needs connector:write to connect", async () => {
    const tenant = await seedTenant();
    const reader = await seedMember(tenant, ["connector:read"]);
    const key = keyVendor.issueKey();
    const refused = await call("POST", `${keyPath(tenant)}/connect`, {
      token: reader.token,
      body: { api_key: key },
    });
    expect(refused.status).toBe(403);
    expect(keyVendor.checked).not.toContain(key);
    expect(await rowsOf(tenant)).toEqual([]);
  });
});
