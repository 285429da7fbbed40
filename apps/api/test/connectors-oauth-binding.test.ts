import { and, auditEvents, connectors, eq } from "@fleet/db";
import type { FakeChatVendor } from "@fleet/testing/fake-chat-vendor";
import { beforeAll, describe, expect, it } from "vitest";
import { type Authorization, bindingCookieOf, followCallback, useFakeVendors } from "./connector-fixtures.ts";
import { call, seedTenant, sessionFor, type Tenant, type TrpcResult, testApi } from "./harness.ts";

// Issue 29 §1: a connect is bound to the browser that started it, and to the person signed in there.
const fakeVendors = useFakeVendors();
let vendor: FakeChatVendor;
beforeAll(() => {
  vendor = fakeVendors.chat();
});

/** A person signed in to the console: their session cookie. */
async function signedIn(tenant: Tenant) {
  return `fleet_session=${await sessionFor(tenant)}`;
}

/** Starts a connect from the console (/trpc, as the page does): the answer and the cookie it sets. */
async function startFromConsole(tenant: Tenant, session: string) {
  const started = await call<TrpcResult<Authorization>>("POST", "/trpc/connectors.connect", {
    headers: { cookie: session, "x-fleet-csrf": "1" },
    body: { workspace_id: tenant.workspaceId, provider: "slack" },
  });
  expect(started.status, started.text).toBe(200);
  const setCookie = started.headers.getSetCookie();
  return { ...started.body.result.data, setCookie, binding: bindingCookieOf(started.headers) };
}

async function connectorRows(api: Awaited<ReturnType<typeof testApi>>, tenant: Tenant, teamId: string) {
  const byWorkspace = await api.database.db
    .select()
    .from(connectors)
    .where(eq(connectors.workspaceId, tenant.workspaceId));
  const byTeam = await api.database.db.select().from(connectors).where(eq(connectors.teamId, teamId));
  const audited = await api.database.db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.tenantId, tenant.tenantId), eq(auditEvents.action, "connector.connect")));
  return { byWorkspace, byTeam, audited };
}

describe("connector OAuth bound to the starting browser", () => {
  it("sets an HttpOnly, SameSite=Lax, path-limited, short-lived cookie whose nonce only the state's hash names", async () => {
    const tenant = await seedTenant();
    const started = await startFromConsole(tenant, await signedIn(tenant));
    const line = started.setCookie.find((cookie) => cookie.startsWith("fleet_connect_slack="))!;
    const attributes = line.split(";").map((part) => part.trim());
    expect(attributes).toEqual(
      expect.arrayContaining([
        "Path=/v1/connectors/slack/callback",
        "Max-Age=600",
        "HttpOnly",
        "SameSite=Lax",
      ]),
    );
    // The console here is plain http: a Secure cookie would not be stored.
    expect(attributes).not.toContain("Secure");
    const nonce = started.binding.split("=")[1]!;
    expect(nonce.length).toBeGreaterThanOrEqual(43);
    expect(JSON.stringify(started)).not.toContain(`"${nonce}"`);
    expect(started.state).not.toContain(nonce);
    expect(Buffer.from(started.state.split(".")[0]!, "base64url").toString()).not.toContain(nonce);
  });

  it("refuses an attacker's consent link completed in a victim's browser: nothing connected, 403 UZ-CONN-010", async () => {
    const api = await testApi();
    const attacker = await seedTenant("attacker");
    const victim = await seedTenant("victim");
    const attackerSession = await signedIn(attacker);
    const victimSession = await signedIn(victim);
    const started = await startFromConsole(attacker, attackerSession);
    // The victim's own connect in progress: a binding cookie of its own, for another state.
    const victimsOwn = await startFromConsole(victim, victimSession);

    // The victim follows the attacker's consent link and consents with the victim's team.
    const team = { id: `T-victim-${victim.tenantId}`, name: "Victim team" };
    const tokensBefore = vendor.tokens.length;
    const browsers = {
      "signed in, no binding cookie": victimSession,
      "signed in, its own connect's cookie": `${victimSession}; ${victimsOwn.binding}`,
      "no cookie at all": null,
      "the attacker's cookie, signed in as the victim": `${victimSession}; ${started.binding}`,
      "the attacker's cookie, nobody signed in": started.binding,
    };
    for (const [browser, cookie] of Object.entries(browsers)) {
      const response = await followCallback(vendor.consent(started.authorize_url, team), cookie ?? "");
      expect(response.status, browser).toBe(403);
      expect(response.headers.get("content-type"), browser).toMatch(/^application\/problem\+json/);
      const problem = (await response.json()) as { error_code: string; detail: string };
      expect(problem.error_code, browser).toBe("UZ-CONN-010");
      expect(problem.detail).not.toContain(started.binding.split("=")[1]!);
      expect(response.headers.get("location"), browser).toBeNull();
    }
    // Nothing connected anywhere, no code exchanged at the vendor, nothing audited.
    expect(vendor.tokens.length).toBe(tokensBefore);
    const rows = await connectorRows(api, attacker, team.id);
    expect(rows).toEqual({ byWorkspace: [], byTeam: [], audited: [] });
    const status = await call("GET", `/v1/workspaces/${attacker.workspaceId}/connectors/slack`, {
      token: attacker.apiKey,
    });
    expect(status.body.status).toBe("not_connected");

    // A decline sent to the victim's browser is refused the same way (the state is not the victim's).
    const declined = await followCallback(
      `${api.baseUrl}/v1/connectors/slack/callback?error=access_denied&state=${encodeURIComponent(started.state)}`,
      victimSession,
    );
    expect(declined.status).toBe(403);

    // The refusals spent nothing: the starter's own browser still completes it once, and the cookie goes.
    const own = await followCallback(
      vendor.consent(started.authorize_url, { id: `T-a-${attacker.tenantId}`, name: "Own team" }),
      `${attackerSession}; ${started.binding}`,
    );
    expect(own.status, await own.clone().text()).toBe(303);
    expect(own.headers.get("location")).toContain(`workspace=${attacker.workspaceId}&connected=slack`);
    const cleared = own.headers.getSetCookie().find((cookie) => cookie.startsWith("fleet_connect_slack="));
    expect(cleared).toMatch(/^fleet_connect_slack=; .*Max-Age=0/);
    expect((await connectorRows(api, victim, team.id)).byTeam).toEqual([]);
  });

  it("refuses the starter's cookie with another member of the same tenant signed in", async () => {
    const tenant = await seedTenant();
    const started = await startFromConsole(tenant, await signedIn(tenant));
    // The same tenant's API key is another principal than the owner's console session.
    const response = await followCallback(
      vendor.consent(started.authorize_url),
      `fleet_session=${tenant.apiKey}; ${started.binding}`,
    );
    expect(response.status).toBe(403);
    expect(((await response.json()) as { error_code: string }).error_code).toBe("UZ-CONN-010");
  });
});
