import type { OutputOf } from "@fleet/contracts";
import type { pollDeviceSignIn } from "@fleet/contracts/sessions/poll-device-sign-in";
import type { startDeviceSignIn } from "@fleet/contracts/sessions/start-device-sign-in";
import { cliCredentials, eq } from "@fleet/db";
import { beforeAll, describe, expect, it } from "vitest";
import { insertCliCredential, signCliCredential } from "../src/services/cli-credentials/issuance.ts";
import { call, callAt, databaseKind, seedTenant, signInLink, type Tenant, testApi } from "./harness.ts";
import { useSecondInstance } from "./instances.ts";
import { openStream } from "./stream-fixtures.ts";

type Started = OutputOf<typeof startDeviceSignIn>;
type Polled = OutputOf<typeof pollDeviceSignIn>;

// The worker's API starts (and, on PGlite, migrates) in a hook, not inside the first test's time.
beforeAll(async () => {
  await testApi();
}, 60_000);

/** A console session as the console gets one: a sign-in link exchanged. */
async function consoleSession(tenant: Tenant): Promise<string> {
  const exchanged = await call<{ session_token: string }>("POST", "/v1/auth/sign-in-links/exchange", {
    body: { token: await signInLink(tenant) },
  });
  expect(exchanged.status, exchanged.text).toBe(200);
  return exchanged.body.session_token;
}

async function start() {
  const started = await call<Started>("POST", "/v1/auth/sessions", { body: { client_name: "fleetctl" } });
  expect(started.status, started.text).toBe(201);
  return started.body;
}

const poll = (deviceCode: string) =>
  call<Polled & { error_code?: string }>("POST", "/v1/auth/sessions/token", {
    body: { device_code: deviceCode },
  });

/** Approves a new device sign-in with `session`; answers the started sign-in. */
async function approvedBy(session: string) {
  const started = await start();
  const approved = await call("POST", "/v1/auth/sessions/approve", {
    token: session,
    body: { user_code: started.user_code },
  });
  expect(approved.status, approved.text).toBe(200);
  return started;
}

/** A command-line credential approved through `session`. */
async function cliVia(session: string) {
  const polled = await poll((await approvedBy(session)).device_code);
  expect(polled.status, polled.text).toBe(200);
  return polled.body;
}

const me = (token: string) => call("GET", "/v1/users/me", { token });
const signOut = (token: string) => call("DELETE", "/v1/auth/sessions/current", { token });

describe("revoking a credential revokes those approved through it", () => {
  it("signing out of the console session revokes the CLI credentials it approved, and denies those not collected", async () => {
    const tenant = await seedTenant();
    const session = await consoleSession(tenant);
    const other = await consoleSession(tenant);
    const cli = await cliVia(session);
    const unrelated = await cliVia(other);
    const uncollected = await approvedBy(session);
    expect((await me(cli.session_token)).status).toBe(200);

    const ended = await signOut(session);
    expect(ended.status, ended.text).toBe(204);
    for (const token of [session, cli.session_token]) {
      const refused = await me(token);
      expect(refused.status, refused.text).toBe(401);
      expect(refused.headers.get("content-type")).toContain("application/problem+json");
      expect(refused.body.error_code).toBe("UZ-AUTH-002");
    }
    const late = await poll(uncollected.device_code);
    expect(late.status, late.text).toBe(403);
    expect(late.body.error_code).toBe("UZ-AUTH-015");
    // Another session and what it approved are untouched.
    expect((await me(other)).status).toBe(200);
    expect((await me(unrelated.session_token)).status).toBe(200);
    const listed = await call<{ items: { credential_id: string; revoked_at: number | null }[] }>(
      "GET",
      "/v1/users/me/cli-credentials",
      { token: other },
    );
    const row = listed.body.items.find((item) => item.credential_id === cli.credential_id);
    expect(row?.revoked_at).not.toBeNull();
    expect((await signOut(session)).status).toBe(401);
  });

  it("revoking a command-line credential revokes the chain approved through it", async () => {
    const tenant = await seedTenant();
    const session = await consoleSession(tenant);
    const parent = await cliVia(session);
    // A command-line credential approves nothing any more; a child of one (an older sign-in) is written.
    const api = await testApi();
    const now = Date.now();
    const child = await insertCliCredential(
      api.database.db,
      {
        tenantId: tenant.tenantId,
        userId: tenant.userId,
        clientName: "older fleetctl",
        clientHost: null,
        ttlSeconds: 3600,
        approvedVia: `cli:${parent.credential_id}`,
      },
      now,
    );
    const childToken = (
      await signCliCredential(
        api.app.services,
        {
          credentialId: child.id,
          tenantId: tenant.tenantId,
          userId: tenant.userId,
          scopes: [],
          ttlSeconds: 3600,
        },
        now,
      )
    ).token;
    expect((await me(childToken)).status).toBe(200);
    const revoked = await call("DELETE", `/v1/users/me/cli-credentials/${parent.credential_id}`, {
      token: session,
    });
    expect(revoked.status, revoked.text).toBe(204);
    expect((await me(parent.session_token)).status).toBe(401);
    expect((await me(childToken)).status).toBe(401);
    const [row] = await api.database.db.select().from(cliCredentials).where(eq(cliCredentials.id, child.id));
    expect(row?.revokedAt).not.toBeNull();
    expect((await me(session)).status).toBe(200);
  });

  it("fleetctl's logout (its own credential) ends it", async () => {
    const tenant = await seedTenant();
    const cli = await cliVia(await consoleSession(tenant));
    expect((await signOut(cli.session_token)).status).toBe(204);
    expect((await me(cli.session_token)).status).toBe(401);
  });

  it("a console session without an id (issued before sign-out existed) cannot approve a sign-in", async () => {
    const tenant = await seedTenant();
    const api = await testApi();
    const legacy = await api.app.services.sessions.sign(
      { sub: tenant.userId, kind: "session", tenantId: tenant.tenantId, scopes: ["fleet:read"] },
      600,
      Date.now(),
    );
    expect((await me(legacy.token)).status).toBe(200);
    const started = await start();
    const refused = await call("POST", "/v1/auth/sessions/approve", {
      token: legacy.token,
      body: { user_code: started.user_code },
    });
    expect(refused.status, refused.text).toBe(401);
    expect(refused.body.error_code).toBe("UZ-AUTH-003");
    expect((await poll(started.device_code)).body.error_code).toBe("UZ-AUTH-012");
  });
});

describe.runIf(databaseKind === "postgres")("signing out across two instances", () => {
  const instances = useSecondInstance();

  it("the session and the credential it approved are refused on the other instance at once, their streams end", async () => {
    const { first, second } = instances();
    const tenant = await seedTenant();
    const session = await consoleSession(tenant);
    const cli = await cliVia(session);
    for (const token of [session, cli.session_token])
      expect((await callAt(second.baseUrl, "GET", "/v1/users/me", { token })).status).toBe(200);
    const path = `/v1/workspaces/${tenant.workspaceId}/events/stream`;
    const stream = await openStream(second.baseUrl, path, { token: cli.session_token });
    expect(stream.status).toBe(200);
    try {
      const ended = await callAt(first.baseUrl, "DELETE", "/v1/auth/sessions/current", { token: session });
      expect(ended.status, ended.text).toBe(204);
      for (const token of [session, cli.session_token]) {
        const refused = await callAt(second.baseUrl, "GET", "/v1/users/me", { token });
        expect(refused.status, refused.text).toBe(401);
      }
      const frame = await stream.next((f) => f.event === "access_revoked", 5_000);
      expect(frame.event).toBe("access_revoked");
      await stream.ended;
    } finally {
      stream.close();
    }
  });
});
