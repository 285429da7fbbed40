import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newId } from "../src/runtime/ids.ts";
import { upsertMember } from "../src/services/members/members.ts";
import { createSignInLink } from "../src/services/sessions/sign-in-links.ts";
import { bootstrapTenant } from "../src/services/tenants/tenants.ts";
import { call, callAt, seedTenant, signInLink, startApi, type TestApi } from "./harness.ts";

interface SignInSession {
  session_token: string;
  expires_at: number;
  operator_token?: string;
}

/** The operator token a sign-in carries in dev mode: for an owner, and only there. */
describe("dev mode: the owner's sign-in opens the operator pages", () => {
  let dev: TestApi;

  beforeAll(async () => {
    dev = await startApi({ FLEET_DEV_MODE: "true" });
  }, 60_000);

  afterAll(async () => {
    await dev?.app.close();
    await dev?.database.close();
  });

  async function exchangeFor(email: string, tenantId: string) {
    const { url } = await createSignInLink(dev.app.services, { email, tenantId });
    const token = new URL(url).searchParams.get("token")!;
    const exchanged = await callAt<SignInSession>(dev.baseUrl, "POST", "/v1/auth/sign-in-links/exchange", {
      body: { token },
    });
    expect(exchanged.status).toBe(200);
    return exchanged.body;
  }

  it("gives an owner an operator token that reads runners and expires with the session", async () => {
    const email = `dev-owner-${newId()}@example.test`;
    const tenant = await bootstrapTenant(dev.app.services, { tenantName: "Dev owner", email });
    const session = await exchangeFor(email, tenant.tenant_id);
    expect(session.operator_token).toEqual(expect.any(String));
    const runners = await callAt(dev.baseUrl, "GET", "/v1/fleets/runners?limit=1", {
      token: session.operator_token!,
    });
    expect(runners.status).toBe(200);
    // An operator credential, not a tenant one: it reads no tenant's data.
    const me = await callAt(dev.baseUrl, "GET", "/v1/users/me", { token: session.operator_token! });
    expect(me.status).toBe(401);
    const claims = JSON.parse(Buffer.from(session.operator_token!.split(".")[1]!, "base64url").toString());
    expect(claims.exp * 1000).toBe(session.expires_at);
  });

  it("gives a member without every tenant scope none", async () => {
    const ownerEmail = `dev-owner-${newId()}@example.test`;
    const tenant = await bootstrapTenant(dev.app.services, { tenantName: "Dev member", email: ownerEmail });
    const email = `dev-member-${newId()}@example.test`;
    await upsertMember(dev.app.services, {
      tenantId: tenant.tenant_id,
      email,
      scopes: ["fleet:admin", "secret:write", "apikey:admin", "workspace:admin"],
    });
    const session = await exchangeFor(email, tenant.tenant_id);
    expect(session.session_token).toEqual(expect.any(String));
    expect(session).not.toHaveProperty("operator_token");
  });
});

describe("outside dev mode", () => {
  it("an owner's sign-in carries no operator token", async () => {
    const tenant = await seedTenant();
    const exchanged = await call<SignInSession>("POST", "/v1/auth/sign-in-links/exchange", {
      body: { token: await signInLink(tenant) },
    });
    expect(exchanged.status).toBe(200);
    expect(exchanged.body).not.toHaveProperty("operator_token");
    expect(Object.keys(exchanged.body).sort()).toEqual([
      "expires_at",
      "session_token",
      "tenant_id",
      "user_id",
    ]);
  });
});
