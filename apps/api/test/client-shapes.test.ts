import { connect } from "node:net";
import type { OutputOf } from "@fleet/contracts";
import type { createApiKey } from "@fleet/contracts/api-keys/create-api-key";
import type { createSchedule } from "@fleet/contracts/schedules/create-schedule";
import { describe, expect, it } from "vitest";
import { installFleet } from "./fleet-fixtures.ts";
import { call, operatorToken, seedRunnerToken, seedTenant, type Tenant, testApi } from "./harness.ts";

interface RawAnswer {
  status: number;
  /** Header names lower-cased. */
  headers: Record<string, string>;
  body: Record<string, unknown> | null;
}

/**
 * Sends one request byte for byte as written (header names in their case, framing headers only where
 * given) over a fresh socket, the way a client builds it, and reads the answer.
 */
async function raw(method: string, path: string, headers: [string, string][], body = ""): Promise<RawAnswer> {
  const api = await testApi();
  const { hostname, port } = new URL(api.baseUrl);
  const head = [
    `${method} ${path} HTTP/1.1`,
    `Host: ${hostname}:${port}`,
    ...headers.map(([n, v]) => `${n}: ${v}`),
  ];
  const request = `${head.join("\r\n")}\r\nConnection: close\r\n\r\n${body}`;
  const text = await new Promise<string>((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(request));
    const chunks: Buffer[] = [];
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    socket.on("error", reject);
  });
  const split = text.indexOf("\r\n\r\n");
  const [statusLine, ...lines] = text.slice(0, split).split("\r\n");
  const answerHeaders = Object.fromEntries(
    lines.map((line) => [
      line.slice(0, line.indexOf(":")).toLowerCase(),
      line.slice(line.indexOf(":") + 1).trim(),
    ]),
  );
  let payload = text.slice(split + 4);
  if (answerHeaders["transfer-encoding"] === "chunked") payload = dechunk(payload);
  return {
    status: Number(statusLine!.split(" ")[1]),
    headers: answerHeaders,
    body: payload.length > 0 ? (JSON.parse(payload) as Record<string, unknown>) : null,
  };
}

function dechunk(text: string): string {
  let out = "";
  let rest = text;
  for (;;) {
    const end = rest.indexOf("\r\n");
    const size = Number.parseInt(rest.slice(0, end), 16);
    if (!size) return out;
    out += rest.slice(end + 2, end + 2 + size);
    rest = rest.slice(end + 2 + size + 2);
  }
}

/** What each client sends besides the request line: curl 8, fetch (undici), and the origin's CLI. */
const curl = (key: string): [string, string][] => [
  ["User-Agent", "curl/8.5.0"],
  ["Accept", "*/*"],
  ["Authorization", `Bearer ${key}`],
  ["Content-Type", "application/json"],
];
const undici = (key: string): [string, string][] => [
  ["authorization", `Bearer ${key}`],
  ["content-type", "application/json"],
  ["accept", "*/*"],
  ["accept-language", "*"],
  ["sec-fetch-mode", "cors"],
  ["user-agent", "node"],
  ["accept-encoding", "gzip, deflate"],
];
const cli = (key: string): [string, string][] => [
  ["Content-Type", "application/json; charset=utf-8"],
  ["Accept", "application/json"],
  ["AUTHORIZATION", `bearer ${key}`],
  ["User-Agent", "fleet-cli/1.4.2"],
  ["Content-Length", "0"],
];

/** A revoked API key of the tenant, ready to be deleted. */
async function revokedKey(tenant: Tenant): Promise<string> {
  const minted = await call<OutputOf<typeof createApiKey>>("POST", "/v1/api-keys", {
    token: tenant.apiKey,
    body: { key_name: "k" },
  });
  const path = `/v1/api-keys/${minted.body.id}`;
  expect((await call("PATCH", path, { token: tenant.apiKey, body: { active: false } })).status).toBe(200);
  return path;
}

async function secretPath(tenant: Tenant): Promise<string> {
  const name = `S_${Math.random().toString(36).slice(2, 8).toUpperCase()}`;
  const created = await call("POST", `/v1/workspaces/${tenant.workspaceId}/secrets`, {
    token: tenant.apiKey,
    body: { name, data: { token: "x" } },
  });
  expect(created.status, created.text).toBe(201);
  return `/v1/workspaces/${tenant.workspaceId}/secrets/${name}`;
}

describe("the request shapes real clients send", () => {
  it("takes a DELETE with a JSON content type and no body, however the client frames it", async () => {
    const tenant = await seedTenant();
    const key = tenant.apiKey;
    const shapes: [string, [string, string][], string][] = [
      ["curl (no length)", curl(key), ""],
      ["fetch (no length)", undici(key), ""],
      ["CLI (length 0, charset)", cli(key), ""],
      ["chunked, no chunks", [...curl(key), ["Transfer-Encoding", "chunked"]], "0\r\n\r\n"],
      [
        "charset without a space",
        [...undici(key).slice(0, 1), ["Content-Type", "application/json;charset=UTF-8"]],
        "",
      ],
    ];
    for (const [shape, headers, body] of shapes) {
      const answer = await raw("DELETE", await revokedKey(tenant), headers, body);
      expect(answer.status, `${shape}: ${JSON.stringify(answer.body)}`).toBe(204);
      const secret = await raw("DELETE", await secretPath(tenant), headers, body);
      expect(secret.status, `${shape}: ${JSON.stringify(secret.body)}`).toBe(204);
    }
    // Through the real fetch too, not only its shape.
    const api = await testApi();
    const fetched = await fetch(`${api.baseUrl}${await revokedKey(tenant)}`, {
      method: "DELETE",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${key}` },
    });
    expect(fetched.status).toBe(204);
  });

  it("takes a bodiless POST with a JSON content type", async () => {
    const tenant = await seedTenant();
    const fleetId = await installFleet(tenant);
    const created = await call<OutputOf<typeof createSchedule>>(
      "POST",
      `/v1/workspaces/${tenant.workspaceId}/fleets/${fleetId}/schedules`,
      { token: tenant.apiKey, body: { cron: "0 9 * * *", message: "hi" } },
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const sync = `/v1/workspaces/${tenant.workspaceId}/fleets/${fleetId}/schedules/${created.body.schedule_id}/sync`;
    for (const headers of [curl(tenant.apiKey), undici(tenant.apiKey), cli(tenant.apiKey)]) {
      const answer = await raw("POST", sync, headers);
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      expect(answer.body).toMatchObject({ schedule_id: created.body.schedule_id });
    }
    const api = await testApi();
    const fetched = await fetch(`${api.baseUrl}${sync}`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${tenant.apiKey}` },
    });
    expect(fetched.status).toBe(200);
  });

  it("reads bodies in any spelling of the JSON media type, and still refuses what it refused", async () => {
    const tenant = await seedTenant();
    const key = tenant.apiKey;
    for (const type of [
      "application/json",
      "application/json; charset=utf-8",
      "application/json;charset=UTF-8",
    ]) {
      const body = JSON.stringify({ key_name: `typed ${type}` });
      const answer = await raw(
        "POST",
        "/v1/api-keys",
        [
          ["authorization", `Bearer ${key}`],
          ["CONTENT-TYPE", type],
          ["Accept", "*/*"],
          ["Content-Length", String(Buffer.byteLength(body))],
        ],
        body,
      );
      expect(answer.status, `${type}: ${JSON.stringify(answer.body)}`).toBe(201);
      expect(answer.headers["content-type"]).toMatch(/^application\/json/);
    }
    // No body where one is needed names the missing field, rather than calling the JSON malformed.
    const empty = await raw("POST", "/v1/api-keys", cli(key));
    expect(empty.status).toBe(400);
    expect(empty.body).toMatchObject({ error_code: "UZ-REQ-001", detail: "key_name is required." });
    // A body on a route that takes none is still refused, and malformed JSON is still malformed.
    const withBody = '{"force":true}';
    const refused = await raw(
      "DELETE",
      await revokedKey(tenant),
      [...curl(key), ["Content-Length", String(withBody.length)]],
      withBody,
    );
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ error_code: "UZ-REQ-001", detail: "Unknown field: force." });
    const malformed = await raw("POST", "/v1/api-keys", [...curl(key), ["Content-Length", "5"]], "{nope");
    expect(malformed.status).toBe(400);
    expect(malformed.body?.error_code).toBe("UZ-REQ-002");
    const poisoned = '{"key_name":"x","__proto__":{"admin":true}}';
    const proto = await raw(
      "POST",
      "/v1/api-keys",
      [...curl(key), ["Content-Length", String(poisoned.length)]],
      poisoned,
    );
    expect(proto.status).toBe(400);
    expect(proto.body?.error_code).toBe("UZ-REQ-002");
  });

  it("answers GETs with Accept */* and the usual client headers", async () => {
    const tenant = await seedTenant();
    for (const headers of [curl(tenant.apiKey), undici(tenant.apiKey), cli(tenant.apiKey)]) {
      const answer = await raw(
        "GET",
        "/v1/users/me",
        headers.filter(([name]) => name !== "Content-Length"),
      );
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      expect(answer.headers["content-type"]).toMatch(/^application\/json/);
    }
    const axios = await raw("GET", "/v1/api-keys", [
      ["Accept", "application/json, text/plain, */*"],
      ["Authorization", `Bearer ${tenant.apiKey}`],
    ]);
    expect(axios.status).toBe(200);
  });

  it("answers an unknown-route probe by the credential first: 401 without a valid one, then 404 or 405", async () => {
    const tenant = await seedTenant();
    const madeUp = "agt_t_0000000000000000000000000000000000000000000";
    const none = await raw("GET", "/v1/no-such-route", [["Accept", "*/*"]]);
    expect(none.status).toBe(401);
    expect(none.body?.error_code).toBe("UZ-AUTH-001");
    for (const [method, path] of [
      ["GET", "/v1/no-such-route"],
      ["DELETE", "/v1/workspaces/x/no-such-thing"],
      ["PUT", "/v1/api-keys"],
    ] as const) {
      const bad = await raw(method, path, curl(madeUp));
      expect(bad.status, `${method} ${path}`).toBe(401);
      expect(bad.body?.error_code).toBe("UZ-AUTH-002");
      const malformed = await raw(method, path, [["Authorization", "Basic dXNlcjpwYXNz"]]);
      expect(malformed.status, `${method} ${path} (Basic)`).toBe(401);
    }
    const unknown = await raw("DELETE", "/v1/workspaces/x/no-such-thing", curl(tenant.apiKey));
    expect(unknown.status).toBe(404);
    expect(unknown.body?.error_code).toBe("UZ-REQ-004");
    const wrongMethod = await raw("PUT", "/v1/api-keys", cli(tenant.apiKey));
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.allow).toContain("POST");
    // Any valid credential class is authenticated for the 404: a runner token or an operator token too.
    for (const token of [await seedRunnerToken(), await operatorToken([])]) {
      expect((await raw("GET", "/v1/no-such-route", curl(token))).status).toBe(404);
    }
    // A path that takes no credential answers as before.
    const open = await raw("GET", "/v1/auth/sign-in-links/exchange", curl(madeUp));
    expect(open.status).toBe(405);
  });

  it("takes an empty JSON body on the console's /trpc mutations too", async () => {
    const tenant = await seedTenant();
    const answer = await raw("POST", "/trpc/providers.deleteTenant", curl(tenant.apiKey));
    // The resolver ran (no provider set), so the empty body was read as none.
    expect(answer.status).toBe(404);
    expect(JSON.stringify(answer.body)).toContain("UZ-PROVIDER-003");
    // Malformed JSON there is the client's fault (400), not the service's.
    const malformed = await raw(
      "POST",
      "/trpc/providers.deleteTenant",
      [...curl(tenant.apiKey), ["Content-Length", "5"]],
      "{nope",
    );
    expect(malformed.status).toBe(400);
    expect(JSON.stringify(malformed.body)).toContain("UZ-REQ-002");
  });
});
