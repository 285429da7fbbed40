import type { OutputOf } from "@fleet/contracts";
import type { listCliCredentials } from "@fleet/contracts/cli-credentials/list-cli-credentials";
import type { pollDeviceSignIn } from "@fleet/contracts/sessions/poll-device-sign-in";
import type { startDeviceSignIn } from "@fleet/contracts/sessions/start-device-sign-in";
import { cliCredentials, deviceSignIns, eq, sql } from "@fleet/db";
import { describe, expect, it } from "vitest";
import { sha256Hex } from "../src/auth/tokens.ts";
import { issueSession } from "../src/services/sessions/session-tokens.ts";
import {
  call,
  callAt,
  databaseKind,
  seedMember,
  seedTenant,
  sessionFor,
  type Tenant,
  testApi,
} from "./harness.ts";
import { useSecondInstance } from "./instances.ts";
import { openStream } from "./stream-fixtures.ts";

type Started = OutputOf<typeof startDeviceSignIn>;
type Polled = OutputOf<typeof pollDeviceSignIn>;

async function start(client = { client_name: "fleetctl", client_host: "build-box-7" }) {
  const started = await call<Started>("POST", "/v1/auth/sessions", { body: client });
  expect(started.status, started.text).toBe(201);
  return started.body;
}

const poll = (deviceCode: string) =>
  call<Polled>("POST", "/v1/auth/sessions/token", { body: { device_code: deviceCode } });

const answer = (verb: "approve" | "deny" | "lookup", token: string, userCode: string) =>
  call(`POST`, `/v1/auth/sessions/${verb}`, { token, body: { user_code: userCode } });

/** A console session of a fresh member holding these scopes. */
async function memberSession(tenant: Tenant, scopes: string[]) {
  const member = await seedMember(tenant, scopes);
  const api = await testApi();
  const { token } = await issueSession(api.app.services, {
    email: member.email,
    tenantId: tenant.tenantId,
    kind: "session",
  });
  return { ...member, session: token };
}

describe("command-line sign-in (device flow)", () => {
  it("starts, shows who asks, is approved, and hands out one CLI credential", async () => {
    const tenant = await seedTenant();
    const session = await sessionFor(tenant);
    const started = await call<Started>("POST", "/v1/auth/sessions", {
      body: { client_name: "fleetctl 1.0", client_host: "laptop.local" },
    });
    expect(started.status).toBe(201);
    expect(started.headers.get("cache-control")).toBe("no-store");
    const { device_code, user_code } = started.body;
    expect(device_code).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(user_code).toMatch(/^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/);
    expect(started.body).toMatchObject({ expires_in: 600, interval: 5 });
    expect(started.body.verification_uri).toMatch(/\/device$/);
    expect(started.body.verification_uri_complete).toBe(`${started.body.verification_uri}?code=${user_code}`);

    // Typed as a person would: lower case, no dash.
    const shown = await answer("lookup", session, user_code.replace("-", " ").toLowerCase());
    expect(shown.status, shown.text).toBe(200);
    expect(shown.body).toMatchObject({
      user_code,
      client_name: "fleetctl 1.0",
      client_host: "laptop.local",
      status: "pending",
    });
    const approved = await answer("approve", session, user_code);
    expect(approved.status, approved.text).toBe(200);
    expect(approved.body.status).toBe("approved");

    const polled = await poll(device_code);
    expect(polled.status, polled.text).toBe(200);
    expect(polled.headers.get("cache-control")).toBe("no-store");
    expect(polled.body).toMatchObject({
      token_type: "Bearer",
      user_id: tenant.userId,
      tenant_id: tenant.tenantId,
    });
    const me = await call("GET", "/v1/users/me", { token: polled.body.session_token });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ credential: "cli_credential", user_id: tenant.userId });

    // Spent: a second poll gets nothing, and the code no longer waits on /device.
    const again = await poll(device_code);
    expect(again.status).toBe(401);
    expect(again.body).toMatchObject({ error_code: "UZ-AUTH-014" });
    const answeredAgain = await answer("approve", session, user_code);
    expect(answeredAgain.status).toBe(409);
    expect(answeredAgain.body).toMatchObject({ error_code: "UZ-AUTH-017", current_state: "approved" });

    const listed = await call<OutputOf<typeof listCliCredentials>>("GET", "/v1/users/me/cli-credentials", {
      token: polled.body.session_token,
    });
    expect(listed.status).toBe(200);
    const mine = listed.body.items.find((item) => item.id === polled.body.credential_id);
    expect(mine).toMatchObject({ client_name: "fleetctl 1.0", client_host: "laptop.local", current: true });
    expect(mine!.expires_at).toBe(polled.body.expires_at);
    // Seven days by default.
    expect(mine!.expires_at - mine!.created_at).toBeGreaterThan(7 * 86_400_000 - 1_000);
    expect(mine!.expires_at - mine!.created_at).toBeLessThanOrEqual(7 * 86_400_000);
  });

  it("answers authorization_pending, then slow_down with a growing interval, then the credential on time", async () => {
    const tenant = await seedTenant();
    const { device_code, user_code } = await start();
    const pending = await poll(device_code);
    expect(pending.status).toBe(409);
    expect(pending.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    expect(pending.body).toMatchObject({ error_code: "UZ-AUTH-012", current_state: "pending" });
    expect(pending.headers.get("retry-after")).toBe("5");
    const tooSoon = await poll(device_code);
    expect(tooSoon.status).toBe(429);
    expect(tooSoon.body).toMatchObject({ error_code: "UZ-AUTH-013" });
    expect(tooSoon.headers.get("retry-after")).toBe("10");
    const stillTooSoon = await poll(device_code);
    expect(stillTooSoon.headers.get("retry-after")).toBe("15");
    expect((await answer("approve", await sessionFor(tenant), user_code)).status).toBe(200);
    // A client that waits the interval it was last given is answered.
    await new Promise((resolve) => setTimeout(resolve, 15_000));
    const onTime = await poll(device_code);
    expect(onTime.status, onTime.text).toBe(200);
  }, 30_000);

  it("refuses an expired sign-in to the client and to /device", async () => {
    const tenant = await seedTenant();
    const { device_code, user_code } = await start();
    const api = await testApi();
    await api.database.db
      .update(deviceSignIns)
      .set({ expiresAt: Date.now() - 1 })
      .where(eq(deviceSignIns.deviceCodeHash, sha256Hex(device_code)));
    const polled = await poll(device_code);
    expect(polled.status).toBe(401);
    expect(polled.body).toMatchObject({ error_code: "UZ-AUTH-014" });
    const looked = await answer("approve", await sessionFor(tenant), user_code);
    expect(looked.status).toBe(404);
    expect(looked.body).toMatchObject({ error_code: "UZ-AUTH-016" });
  });

  it("is answered only from a console session: a command-line credential can neither approve nor deny", async () => {
    const tenant = await seedTenant();
    const { user_code } = await start({ client_name: "renewer", client_host: "h" });
    const cli = await sessionFor(tenant, "cli");
    for (const verb of ["approve", "deny"] as const) {
      const refused = await answer(verb, cli, user_code);
      expect(refused.status, refused.text).toBe(401);
      expect(refused.body.error_code).toBe("UZ-AUTH-003");
    }
    const console = await sessionFor(tenant);
    expect((await answer("lookup", console, user_code)).body).toMatchObject({ status: "pending" });
    const approved = await answer("approve", console, user_code);
    expect(approved.status, approved.text).toBe(200);
  });

  it("tells the client access_denied once the person denies, and refuses a later approval", async () => {
    const tenant = await seedTenant();
    const session = await sessionFor(tenant);
    const { device_code, user_code } = await start();
    const denied = await answer("deny", session, user_code);
    expect(denied.status, denied.text).toBe(200);
    expect(denied.body.status).toBe("denied");
    const polled = await poll(device_code);
    expect(polled.status).toBe(403);
    expect(polled.body).toMatchObject({ error_code: "UZ-AUTH-015" });
    const late = await answer("approve", session, user_code);
    expect(late.status).toBe(409);
    expect(late.body).toMatchObject({ error_code: "UZ-AUTH-017", current_state: "denied" });
    expect((await answer("lookup", session, user_code)).body).toMatchObject({ status: "denied" });
  });

  it("takes one answer of two people approving at once, and the credential is the winner's", async () => {
    const tenant = await seedTenant();
    for (let round = 0; round < 3; round++) {
      const a = await memberSession(tenant, ["fleet:read"]);
      const b = await memberSession(tenant, ["fleet:write"]);
      const { device_code, user_code } = await start();
      const [first, second] = await Promise.all([
        answer("approve", a.session, user_code),
        answer("approve", b.session, user_code),
      ]);
      const statuses = [first.status, second.status].sort();
      expect(statuses).toEqual([200, 409]);
      const winner = first.status === 200 ? a : b;
      const polled = await poll(device_code);
      expect(polled.status).toBe(200);
      expect(polled.body.user_id).toBe(winner.userId);
      // The credential acts with no more than its approver held.
      const me = await call("GET", "/v1/users/me", { token: polled.body.session_token });
      expect(me.body.scopes).toEqual(winner === a ? ["fleet:read"] : ["fleet:write"]);
    }
  });

  it("mints one credential when the client polls several times at once", async () => {
    const tenant = await seedTenant();
    const { device_code, user_code } = await start({ client_name: "racer", client_host: "r" });
    expect((await answer("approve", await sessionFor(tenant), user_code)).status).toBe(200);
    const polls = await Promise.all(Array.from({ length: 6 }, () => poll(device_code)));
    const won = polls.filter((p) => p.status === 200);
    expect(won).toHaveLength(1);
    for (const lost of polls.filter((p) => p.status !== 200))
      expect(["UZ-AUTH-013", "UZ-AUTH-014"]).toContain((lost.body as { error_code?: string }).error_code);
    const api = await testApi();
    const rows = await api.database.db
      .select()
      .from(cliCredentials)
      .where(sql`${cliCredentials.userId} = ${tenant.userId} and ${cliCredentials.clientName} = 'racer'`);
    expect(rows).toHaveLength(1);
  });

  it("refuses entering codes after 5 wrong ones in 15 minutes, for that person only", async () => {
    const tenant = await seedTenant();
    const guesser = await memberSession(tenant, []);
    const other = await memberSession(tenant, []);
    const { user_code } = await start();
    // Guesses sent at once cannot pass the limit together.
    const guesses = await Promise.all(
      [
        "BBBB-BBBB",
        "CCCC-CCCC",
        "DDDD-DDDD",
        "FFFF-FFFF",
        "GGGG-GGGG",
        "HHHH-HHHH",
        "JJJJ-JJJJ",
        "KKKK-KKKK",
      ].map((code) => answer("lookup", guesser.session, code)),
    );
    expect(guesses.filter((g) => g.status === 404)).toHaveLength(5);
    for (const refused of guesses.filter((g) => g.status !== 404)) {
      expect(refused.status).toBe(429);
      expect(refused.body).toMatchObject({ error_code: "UZ-AUTH-018" });
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(800);
    }
    // Even the right code, now.
    expect((await answer("approve", guesser.session, user_code)).status).toBe(429);
    // Someone else is not held by it, and found codes do not count against them.
    for (let i = 0; i < 7; i++) expect((await answer("lookup", other.session, user_code)).status).toBe(200);
    expect((await answer("approve", other.session, user_code)).status).toBe(200);
  });

  it("refuses hostile and malformed input with 400, never a 500", async () => {
    const session = await sessionFor(await seedTenant());
    const bad: [string, unknown, string | undefined][] = [
      ["/v1/auth/sessions", { client_name: "a\u0000b" }, undefined],
      ["/v1/auth/sessions", { client_name: "x".repeat(129) }, undefined],
      ["/v1/auth/sessions", { client_name: "evil\u202etxt.exe" }, undefined],
      ["/v1/auth/sessions", { client_name: "ok", client_host: null }, undefined],
      ["/v1/auth/sessions", { client_name: "ok", extra: 1 }, undefined],
      ["/v1/auth/sessions", null, undefined],
      ["/v1/auth/sessions/token", { device_code: "" }, undefined],
      ["/v1/auth/sessions/token", { device_code: "d".repeat(300) }, undefined],
      ["/v1/auth/sessions/token", { device_code: { $ne: null } }, undefined],
      ["/v1/auth/sessions/approve", { user_code: "AAAA-AAAA" }, session],
      ["/v1/auth/sessions/approve", { user_code: "BCDF-GHJ" }, session],
      ["/v1/auth/sessions/approve", { user_code: "\ud800BCDFGHJK" }, session],
      ["/v1/auth/sessions/lookup", { user_code: ["BCDF-GHJK"] }, session],
    ];
    for (const [path, body, token] of bad) {
      const answered = await call("POST", path, { body, ...(token ? { token } : {}) });
      expect(answered.status, `${path} ${JSON.stringify(body)}: ${answered.text}`).toBe(400);
      expect(answered.body.error_code).toBe("UZ-REQ-001");
    }
    const empty = await call("POST", "/v1/auth/sessions/token", {
      rawBody: "",
      headers: { "content-type": "application/json" },
    });
    expect(empty.status).toBeLessThan(500);
    const unknown = await poll("not-a-device-code");
    expect(unknown.status).toBe(401);
    expect(unknown.body).toMatchObject({ error_code: "UZ-AUTH-014" });
  });

  it("lets a person list and revoke their CLI credentials, refused at once, and no one else's", async () => {
    const tenant = await seedTenant();
    const session = await sessionFor(tenant);
    const stranger = await seedTenant();
    const { device_code, user_code } = await start({ client_name: "to revoke", client_host: "h" });
    expect((await answer("approve", session, user_code)).status).toBe(200);
    const credential = (await poll(device_code)).body;
    expect((await call("GET", "/v1/users/me", { token: credential.session_token })).status).toBe(200);
    const listed = await call<OutputOf<typeof listCliCredentials>>("GET", "/v1/users/me/cli-credentials", {
      token: session,
    });
    expect(listed.body.items.map((i) => i.id)).toContain(credential.credential_id);
    expect(listed.body.items.every((i) => i.current === false)).toBe(true);

    const path = `/v1/users/me/cli-credentials/${credential.credential_id}`;
    const foreign = await call("DELETE", path, { token: stranger.apiKey });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error_code).toBe("UZ-AUTH-019");
    expect((await call("GET", "/v1/users/me", { token: credential.session_token })).status).toBe(200);

    const revoked = await call("DELETE", path, { token: session });
    expect(revoked.status, revoked.text).toBe(204);
    const refused = await call("GET", "/v1/users/me", { token: credential.session_token });
    expect(refused.status).toBe(401);
    expect(refused.body.error_code).toBe("UZ-AUTH-002");
    expect((await call("DELETE", path, { token: session })).status).toBe(204);
    const after = await call<OutputOf<typeof listCliCredentials>>("GET", "/v1/users/me/cli-credentials", {
      token: session,
    });
    expect(after.body.items.find((i) => i.id === credential.credential_id)?.revoked_at).toBeTypeOf("number");
    const audit = await call<{ items: { action: string }[] }>("GET", "/v1/tenants/me/audit", {
      token: tenant.apiKey,
    });
    const actions = audit.body.items.map((item) => item.action);
    expect(actions).toContain("cli_credential.revoke");
    expect(actions).toContain("cli_sign_in.approve");
  });

  it("keeps device codes, user codes and credentials out of the log", async () => {
    const tenant = await seedTenant();
    const { device_code, user_code } = await start();
    await poll(device_code);
    await answer("approve", await sessionFor(tenant), user_code);
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    const polled = await poll(device_code);
    expect(polled.status, polled.text).toBe(200);
    const logs = (await testApi()).logs.join("\n");
    for (const secret of [device_code, user_code, user_code.replace("-", ""), polled.body.session_token])
      expect(logs).not.toContain(secret);
  }, 20_000);
});

describe.runIf(databaseKind === "postgres")("a revoked CLI credential across two instances", () => {
  const instances = useSecondInstance();

  it("is refused on the other instance's very next request, and its stream there ends", async () => {
    const { first, second } = instances();
    const tenant = await seedTenant();
    const session = await sessionFor(tenant);
    for (let round = 0; round < 10; round++) {
      const started = await callAt<Started>(first.baseUrl, "POST", "/v1/auth/sessions", {
        body: { client_name: `round ${round}` },
      });
      await callAt(second.baseUrl, "POST", "/v1/auth/sessions/approve", {
        token: session,
        body: { user_code: started.body.user_code },
      });
      const credential = await callAt<Polled>(first.baseUrl, "POST", "/v1/auth/sessions/token", {
        body: { device_code: started.body.device_code },
      });
      expect(credential.status, credential.text).toBe(200);
      const token = credential.body.session_token;
      for (let read = 0; read < 2; read++)
        expect((await callAt(second.baseUrl, "GET", "/v1/users/me", { token })).status).toBe(200);
      const stream =
        round === 0
          ? await openStream(second.baseUrl, `/v1/workspaces/${tenant.workspaceId}/events/stream`, { token })
          : null;
      if (stream !== null) expect(stream.status).toBe(200);
      try {
        const revoked = await callAt(
          first.baseUrl,
          "DELETE",
          `/v1/users/me/cli-credentials/${credential.body.credential_id}`,
          { token: session },
        );
        expect(revoked.status, revoked.text).toBe(204);
        const refused = await callAt(second.baseUrl, "GET", "/v1/users/me", { token });
        expect(refused.status, refused.text).toBe(401);
        expect(refused.body.error_code).toBe("UZ-AUTH-002");
        if (stream !== null) {
          const frame = await stream.next((f) => f.event === "access_revoked", 5_000);
          expect(frame.data).toEqual({ reason: "credential_revoked" });
          await stream.ended;
        }
      } finally {
        stream?.close();
      }
    }
  });
});
