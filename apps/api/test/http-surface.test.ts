import { request as httpRequest } from "node:http";
import { connect } from "node:net";
import type { OutputOf } from "@fleet/contracts";
import type { createApiKey } from "@fleet/contracts/api-keys/create-api-key";
import type { enrollRunner } from "@fleet/contracts/runners/enroll-runner";
import { describe, expect, it } from "vitest";
import { bootstrapTenant } from "../src/services/tenants/tenants.ts";
import {
  call,
  callAt,
  databaseKind,
  operatorToken,
  seedTenant,
  sessionFor,
  signInLink,
  startApi,
  testApi,
} from "./harness.ts";

function rawStatus(baseUrl: string, headers: Record<string, string>): Promise<number | "closed"> {
  return new Promise((resolve) => {
    const request = httpRequest(`${baseUrl}/v1/users/me`, { headers, agent: false }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    request.on("error", () => resolve("closed"));
    request.end();
  });
}

describe("the HTTP surface", () => {
  it("answers problems with every required member and a request id header", async () => {
    const response = await call("GET", "/v1/api-keys");
    expect(response.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    const requestId = response.headers.get("x-request-id");
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(response.body).toMatchObject({
      error_code: "UZ-AUTH-001",
      title: "Authentication required",
      docs_uri: expect.stringMatching(/#UZ-AUTH-001$/),
      request_id: requestId,
    });
    expect(typeof response.body.detail).toBe("string");
    expect(response.body).not.toHaveProperty("user_message"); // omitted, not null, when the code has none
  });

  it("answers with the server's own request id, whatever X-Request-Id the caller sends", async () => {
    for (const sent of ["trace-abc.123", "bad id with spaces"]) {
      const answer = await call("GET", "/healthz", { headers: { "x-request-id": sent } });
      expect(answer.headers.get("x-request-id")).toMatch(
        /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/,
      );
    }
  });

  it("refuses malformed JSON, wrong media types, non-object bodies and oversized bodies", async () => {
    const { apiKey } = await seedTenant();
    const malformed = await call("POST", "/v1/api-keys", {
      token: apiKey,
      rawBody: "{not json",
      headers: { "content-type": "application/json" },
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error_code).toBe("UZ-REQ-002");
    const charset = await call("POST", "/v1/api-keys", {
      token: apiKey,
      rawBody: JSON.stringify({ key_name: "with-charset" }),
      headers: { "content-type": "application/json; charset=utf-8" },
    });
    expect(charset.status).toBe(201);
    const text = await call("POST", "/v1/api-keys", {
      token: apiKey,
      rawBody: "key_name=x",
      headers: { "content-type": "text/plain" },
    });
    expect(text.status).toBe(415);
    expect(text.body.error_code).toBe("UZ-REQ-003");
    const array = await call("POST", "/v1/api-keys", { token: apiKey, body: [1, 2] });
    expect(array.status).toBe(400);
    expect(array.body.error_code).toBe("UZ-REQ-001");
    const huge = await call("POST", "/v1/api-keys", {
      token: apiKey,
      body: { key_name: "x", description: "y".repeat(70_000) },
    });
    expect(huge.status).toBe(413);
    expect(huge.body.error_code).toBe("UZ-REQ-006");
  });

  it("refuses unknown and retired query parameters, and bodies where a route takes none, naming them", async () => {
    const { apiKey } = await seedTenant();
    const unknown = await call("GET", "/v1/api-keys?colour=red", { token: apiKey });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({
      error_code: "UZ-REQ-001",
      detail: "Unknown query parameter: colour.",
    });
    const retired = await call("GET", "/v1/api-keys?page=2", { token: apiKey });
    expect(retired.status).toBe(400);
    expect(retired.body).toMatchObject({ error_code: "UZ-REQ-001", detail: expect.stringContaining("page") });
    const twice = await call("GET", "/v1/api-keys?limit=1&limit=2", { token: apiKey });
    expect(twice.status).toBe(400);
    expect(twice.body.detail).toContain("limit");

    const minted = await call<OutputOf<typeof createApiKey>>("POST", "/v1/api-keys", {
      token: apiKey,
      body: { key_name: "closed" },
    });
    const revoke = `/v1/api-keys/${minted.body.id}`;
    expect((await call("PATCH", revoke, { token: apiKey, body: { active: false } })).status).toBe(200);
    const withBody = await call("DELETE", revoke, { token: apiKey, body: { force: true } });
    expect(withBody.status).toBe(400);
    expect(withBody.body).toMatchObject({ error_code: "UZ-REQ-001", detail: "Unknown field: force." });
    // fetch sends no body with GET: a raw request does, as some clients will.
    const api = await testApi();
    const me = await new Promise<{ status: number; body: Record<string, unknown> }>((resolve, reject) => {
      const sent = httpRequest(
        `${api.baseUrl}/v1/users/me`,
        {
          method: "GET",
          headers: {
            authorization: `Bearer ${apiKey}`,
            "content-type": "application/json",
            "content-length": "21",
          },
        },
        (response) => {
          let text = "";
          response.on("data", (chunk: Buffer) => {
            text += chunk.toString();
          });
          response.on("end", () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) }));
        },
      );
      sent.on("error", reject);
      sent.end(JSON.stringify({ as: "someone-else" }));
    });
    expect(me.status).toBe(400);
    expect(me.body).toMatchObject({ error_code: "UZ-REQ-001", detail: "GET /v1/users/me takes no body." });
    // Nothing was changed by the refused delete; an empty object is no field at all.
    expect((await call("DELETE", revoke, { token: apiKey, body: {} })).status).toBe(204);
  });

  it("answers unknown routes 404 and wrong methods 405 with Allow, once the credential is valid", async () => {
    const { apiKey: token } = await seedTenant();
    const unknown = await call("GET", "/v1/nothing-here", { token });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error_code).toBe("UZ-REQ-004");
    const wrong = await call("PUT", "/v1/api-keys", { token });
    expect(wrong.status).toBe(405);
    expect(wrong.body.error_code).toBe("UZ-REQ-005");
    expect(wrong.headers.get("allow")).toContain("GET");
    expect(wrong.headers.get("allow")).toContain("POST");
    // A trailing slash is not a wrong method.
    expect((await call("GET", "/v1/api-keys/", { token })).status).not.toBe(405);
    // Without a valid credential a /v1 probe learns nothing of which routes exist.
    expect((await call("GET", "/v1/nothing-here")).body.error_code).toBe("UZ-AUTH-001");
    expect((await call("PUT", "/v1/api-keys", { token: "agt_t_made_up" })).body.error_code).toBe(
      "UZ-AUTH-002",
    );
    // Outside /v1, and on paths that take no credential, nothing changes.
    expect((await call("GET", "/nothing-here")).status).toBe(404);
    expect((await call("GET", "/v1/auth/sign-in-links/exchange")).status).toBe(405);
    expect((await call("POST", "/v1/openapi.json")).status).toBe(405);
  });

  it("refuses a malformed id in a path with 400 naming it", async () => {
    const { apiKey } = await seedTenant();
    const response = await call("PATCH", "/v1/api-keys/not-a-uuid", {
      token: apiKey,
      body: { active: false },
    });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ error_code: "UZ-REQ-001", detail: "id must be a valid UUIDv7." });
  });

  it("answers a request the HTTP parser cannot read with a problem, and closes the connection", async () => {
    const api = await testApi();
    const { port } = new URL(api.baseUrl);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), "127.0.0.1", () => socket.write("NOT HTTP AT ALL\r\n\r\n"));
      let text = "";
      socket.on("data", (chunk: Buffer) => {
        text += chunk.toString();
      });
      socket.on("close", () => resolve(text));
      socket.on("error", reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(answer).toMatch(/content-type: application\/problem\+json/i);
    const body = JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4));
    expect(body).toMatchObject({ error_code: "UZ-REQ-001", request_id: expect.any(String) });
  });

  it("refuses a header block over 16 KiB before routing", async () => {
    const api = await testApi();
    const status = await rawStatus(api.baseUrl, { "x-padding": "a".repeat(17 * 1024) });
    expect([431, "closed"]).toContain(status);
    expect(await rawStatus(api.baseUrl, { "x-padding": "a".repeat(8 * 1024) })).toBe(401);
  });

  it("points docs_uri at DOCS_URL when one is configured", async () => {
    const api = await startApi({ DOCS_URL: "https://docs.example.test/fleet/errors" });
    try {
      const response = await callAt(api.baseUrl, "GET", "/v1/api-keys");
      expect(response.body.docs_uri).toBe("https://docs.example.test/fleet/errors#UZ-AUTH-001");
    } finally {
      await api.app.close();
      await api.database.close();
    }
  });

  it("answers 503 UZ-INTERNAL-002 while the database is unreachable, leaking nothing", async () => {
    const broken = await startApi();
    const { apiKey } = await seedTenant();
    await broken.database.close(); // every query now fails inside the driver
    try {
      const response = await callAt(broken.baseUrl, "GET", "/v1/api-keys", { token: apiKey });
      expect(response.status).toBe(503);
      expect(response.body.error_code).toBe("UZ-INTERNAL-002");
      expect(response.headers.get("retry-after")).toBe("1");
      expect(response.text).not.toMatch(/select|postgres|pglite|closed|stack|at \w+ \(/i);
      // The console's route answers the same refusal, its headers included.
      const viaConsole = await callAt(broken.baseUrl, "GET", "/trpc/users.getMe", { token: apiKey });
      expect(viaConsole.status).toBe(503);
      expect(viaConsole.headers.get("retry-after")).toBe("1");
      expect(broken.logs.join("\n")).not.toContain(apiKey); // the failure is logged, the credential is not
      const ready = await callAt(broken.baseUrl, "GET", "/readyz");
      expect(ready.status).toBe(503);
      expect(ready.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    } finally {
      await broken.app.close();
    }
  });

  // Breaking the schema under a running API needs a database of its own: the embedded one in memory.
  it.runIf(databaseKind === "pglite")(
    "answers an unexpected failure with a 500 that leaks nothing, and logs it with the request id",
    async () => {
      const broken = await startApi();
      const { apiKey } = await seedTenant();
      await broken.database.query("alter table api_keys rename to api_keys_gone");
      try {
        const response = await callAt(broken.baseUrl, "GET", "/v1/api-keys", { token: apiKey });
        expect(response.status).toBe(500);
        expect(response.body.error_code).toBe("UZ-INTERNAL-001");
        expect(Object.keys(response.body).sort()).toEqual([
          "detail",
          "docs_uri",
          "error_code",
          "request_id",
          "title",
          "user_message",
        ]);
        expect(response.text).not.toMatch(/select|relation|api_keys|postgres|pglite|stack|at \w+ \(/i);
        const logged = broken.logs.find(
          (line) => line.includes(String(response.body.request_id)) && line.includes('"level":50'),
        );
        expect(logged).toBeDefined();
        expect(logged).toMatch(/relation \\"api_keys\\" does not exist/); // the database's own words are kept
        expect(logged).not.toContain("params:"); // the statement's parameters are not: the key's hash was one
        expect(broken.logs.join("\n")).not.toContain(apiKey);
      } finally {
        await broken.app.close();
        await broken.database.close();
      }
    },
  );

  // A failed write's parameters are what its caller sent (a body, a key's hash): the log keeps none of
  // them, and a line stays short whatever the statement.
  it.runIf(databaseKind === "pglite")(
    "logs a failed write without the statement's parameters, in a line of bounded size",
    async () => {
      const broken = await startApi();
      // Its own embedded database: the tenant is made there.
      const { api_key: apiKey } = await bootstrapTenant(broken.app.services, {
        tenantName: "refused keys",
        email: "owner@refused-keys.test",
      });
      await broken.database.query(`
        create function refuse_keys() returns trigger language plpgsql as $$
        begin raise exception 'keys refused'; end $$`);
      await broken.database.query(
        "create trigger refuse_keys before insert on api_keys for each row execute function refuse_keys()",
      );
      const canary = `canary-${"x".repeat(40)}`;
      try {
        const minted = await callAt(broken.baseUrl, "POST", "/v1/api-keys", {
          token: apiKey,
          body: { key_name: "deploy-bot", description: canary },
        });
        expect(minted.status).toBe(500);
        const failed = broken.logs.filter((line) => line.includes('"level":50'));
        expect(failed.length).toBeGreaterThan(0);
        expect(failed.join("\n")).toContain("keys refused");
        expect(failed.join("\n")).not.toContain(canary);
        for (const line of failed) expect(line.length).toBeLessThan(8_000);
      } finally {
        await broken.app.close();
        await broken.database.close();
      }
    },
  );

  it("serves health and readiness", async () => {
    expect((await call("GET", "/healthz")).body).toMatchObject({ status: "ok" });
    expect((await call("GET", "/readyz")).body).toMatchObject({ status: "ready" });
  });

  it("writes one JSON access line per request: request id, method, route pattern, status, duration", async () => {
    const api = await testApi();
    const tenant = await seedTenant();
    const ids = ["access-line-1", "access-line-2"];
    await call("GET", "/v1/users/me", { token: tenant.apiKey, headers: { "x-request-id": ids[0]! } });
    // Sent raw: fetch would percent-encode the quote and the backslash.
    await new Promise<void>((resolve, reject) => {
      const path = '/v1/no/such/"route"\\';
      const { hostname, port } = new URL(api.baseUrl);
      const headers = { "x-request-id": ids[1]!, authorization: `Bearer ${tenant.apiKey}` };
      const target = { hostname, port, path, headers };
      httpRequest(target, (response) => {
        response.resume().once("end", resolve);
      })
        .once("error", reject)
        .end();
    });
    const lines = api.logs
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((line) => ids.includes(line.clientReqId as string));
    // The server's own id, with the caller's beside it.
    for (const line of lines) expect(line.reqId).toMatch(/^[0-9a-f-]{36}$/);
    expect(lines).toEqual([
      expect.objectContaining({
        level: 30,
        clientReqId: ids[0],
        method: "GET",
        route: "/v1/users/me",
        status: 200,
      }),
      // No route matched: the path stands in for the pattern, escaped like any JSON string.
      expect.objectContaining({
        clientReqId: ids[1],
        route: '/v1/no/such/"route"\\',
        status: 404,
        msg: "request",
      }),
    ]);
    for (const line of lines) {
      expect(line).toMatchObject({ pid: process.pid, msg: "request" });
      expect(typeof line.time).toBe("number");
      expect(typeof line.ms).toBe("number");
    }
  });

  it("never logs a key, a token or an Authorization header", async () => {
    const api = await testApi();
    const tenant = await seedTenant();
    const minted = await call<OutputOf<typeof createApiKey>>("POST", "/v1/api-keys", {
      token: tenant.apiKey,
      body: { key_name: "log-scan" },
    });
    await call("GET", "/v1/users/me", { token: minted.body.key });
    await call("GET", "/v1/users/me", { token: `${minted.body.key}x` });
    // Every credential class, accepted and refused, on routes that answer and routes that refuse.
    const session = await sessionFor(tenant);
    const operator = await operatorToken(["runner:write"]);
    const enrolled = await call<OutputOf<typeof enrollRunner>>("POST", "/v1/runners", {
      token: operator,
      body: { host_id: "log-scan-host", assigned_policy: { sandbox_tier: "landlock_full" } },
    });
    const runner = enrolled.body.runner_token;
    const linkToken = await signInLink(tenant);
    await call("GET", "/v1/users/me", { token: session });
    await call("GET", "/v1/api-keys", { token: operator }); // refused: an operator token on a tenant route
    await call("GET", "/v1/runners/me", { token: runner });
    await call("GET", "/v1/users/me", { token: runner }); // refused: a runner token on a tenant route
    await call("GET", "/v1/nothing-here", {
      token: session,
      headers: { cookie: `fleet_session=${session}` },
    });
    await call("POST", "/v1/api-keys", {
      token: session,
      rawBody: "{broken",
      headers: { "content-type": "application/json" },
    });
    await call("POST", "/v1/auth/sign-in-links/exchange", { body: { token: linkToken } });
    const logs = api.logs.join("\n");
    expect(logs.length).toBeGreaterThan(0);
    for (const secret of [minted.body.key, tenant.apiKey, session, operator, runner, linkToken]) {
      expect(secret.length).toBeGreaterThan(20);
      expect(logs).not.toContain(secret);
    }
    expect(logs.toLowerCase()).not.toContain("bearer");
    expect(logs.toLowerCase()).not.toContain("authorization");
    expect(logs).not.toContain("fleet_session=");
  });
});
