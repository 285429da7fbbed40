import type { OutputOf } from "@fleet/contracts";
import type { exchangeSignInLink } from "@fleet/contracts/sessions/exchange-sign-in-link";
import type { getMe } from "@fleet/contracts/users/get-me";
import { describe, expect, it } from "vitest";
import { call, seedTenant, sessionFor, signInLink, type TrpcRefusal, type TrpcResult } from "./harness.ts";

describe("sign-in links and the console session", () => {
  it("exchanges a sign-in link once for a console session", async () => {
    const tenant = await seedTenant();
    const token = await signInLink(tenant);
    const first = await call<OutputOf<typeof exchangeSignInLink>>("POST", "/v1/auth/sign-in-links/exchange", {
      body: { token },
    });
    expect(first.status).toBe(200);
    expect(first.headers.get("cache-control")).toBe("no-store");
    expect(first.body.expires_at).toBeGreaterThan(Date.now());
    const me = await call("GET", "/v1/users/me", { token: first.body.session_token });
    expect(me.body).toMatchObject({ credential: "session_token", user_id: tenant.userId });
    const second = await call("POST", "/v1/auth/sign-in-links/exchange", { body: { token } });
    expect(second.status).toBe(401);
    expect(second.body.error_code).toBe("UZ-AUTH-010");
  });

  it("spends a sign-in link exactly once under concurrent exchanges", async () => {
    const tenant = await seedTenant();
    const token = await signInLink(tenant);
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => call("POST", "/v1/auth/sign-in-links/exchange", { body: { token } })),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 401)).toHaveLength(7);
  });

  it("serves the console over /trpc with the session cookie, and refuses cookie mutations without the CSRF header", async () => {
    const tenant = await seedTenant();
    const cookie = `fleet_session=${await sessionFor(tenant)}`;
    const me = await call<TrpcResult<OutputOf<typeof getMe>>>("GET", "/trpc/users.getMe", {
      headers: { cookie },
    });
    expect(me.status).toBe(200);
    expect(me.body.result.data.email).toBe(tenant.email);
    const forged = await call<TrpcRefusal>("POST", "/trpc/apiKeys.create", {
      headers: { cookie },
      body: { key_name: "from-another-site" },
    });
    expect(forged.status).toBe(403);
    expect(forged.body.error.data.problem.error_code).toBe("UZ-AUTH-011");
    const allowed = await call("POST", "/trpc/apiKeys.create", {
      headers: { cookie, "x-fleet-csrf": "1" },
      body: { key_name: "console" },
    });
    expect(allowed.status).toBe(200);
    // The REST surface reads bearer credentials only.
    expect((await call("GET", "/v1/users/me", { headers: { cookie } })).status).toBe(401);
  });
});
