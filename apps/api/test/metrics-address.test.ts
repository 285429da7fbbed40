import { createServer } from "node:http";
import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../src/env.ts";
import { createApp } from "../src/server.ts";
import { bootstrapTenant } from "../src/services/tenants/tenants.ts";
import { call, callAt, startApi, type TestApi, testApi, testDatabaseUrl } from "./harness.ts";
import { expectProblem, scrape, TOKEN, value } from "./metrics-fixtures.ts";

describe("metrics, unconfigured", () => {
  it("stops the start with one configuration error when the metrics address cannot be listened on", async () => {
    const api = await testApi();
    const busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, "127.0.0.1", resolve));
    const address = busy.address();
    const port = typeof address === "object" && address !== null ? address.port : 0;
    try {
      const config = loadConfig({
        DATABASE_URL: api.config.databaseUrl,
        FLEET_METRICS_ADDRESS: `127.0.0.1:${port}`,
      });
      const started = createApp(config, api.database);
      await expect(started).rejects.toThrow(ConfigError);
      await expect(started).rejects.toThrow(
        `invalid configuration: FLEET_METRICS_ADDRESS 127.0.0.1:${port} cannot be listened on (EADDRINUSE)`,
      );
    } finally {
      busy.close();
    }
  });

  it("answers /metrics 404 like any unknown path when neither a token nor an address is set", async () => {
    const api = await testApi();
    expect(api.config.metrics).toEqual({ token: null, address: null });
    for (const token of [undefined, TOKEN]) {
      const answer = await call("GET", "/metrics", token === undefined ? {} : { token });
      expectProblem(answer, 404, "UZ-REQ-004");
    }
    expect(api.app.services.metrics).toBeNull();
    expect(api.app.services.tracing).toBeNull();
  });
});

/** Sends a request's head and holds its body back: the request is in flight until the socket closes. */
function heldRequest(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("error", reject);
    socket.write(
      "POST /v1/api-keys HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\nExpect: 100-continue\r\n\r\n",
    );
    // Node answers 100 Continue as it hands the request to the listener: from then on it is counted.
    socket.once("data", (chunk) => {
      expect(chunk.toString()).toMatch(/^HTTP\/1\.1 100 Continue/);
      resolve(socket);
    });
  });
}

describe("metrics on a bind address of their own", () => {
  let api: TestApi;
  let metricsUrl: string;
  beforeAll(async () => {
    api = await startApi({
      DATABASE_URL: testDatabaseUrl(),
      FLEET_METRICS_ADDRESS: "127.0.0.1:0",
      FLEET_MAX_IN_FLIGHT: "2",
      FLEET_RATE_LIMIT_CREDENTIAL: "3",
    });
    const address = api.app.metricsServer!.address();
    metricsUrl = `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}`;
  }, 60_000);
  afterAll(async () => {
    await api.app.close();
    await api.database.close();
  });

  it("serves /metrics there without a token, and nothing else; the API's port answers 404", async () => {
    const text = await scrape(metricsUrl, null);
    expect(value(text, "fleet_rate_limit_refusals_total", { bucket: "credential" })).toBe(0);
    expectProblem(await callAt(api.baseUrl, "GET", "/metrics"), 404, "UZ-REQ-004");
    expectProblem(await callAt(metricsUrl, "GET", "/v1/users/me"), 404, "UZ-REQ-004");
    expectProblem(await callAt(metricsUrl, "GET", "/healthz"), 404, "UZ-REQ-004");
    expectProblem(await callAt(metricsUrl, "POST", "/metrics"), 405, "UZ-REQ-005");
  });

  it("counts 429s by the limit that refused them: a credential's quota, the in-flight ceiling", async () => {
    const made = await bootstrapTenant(api.app.services, {
      tenantName: "metrics",
      email: `metrics-${Date.now()}@example.test`,
    });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++)
      statuses.push((await callAt(api.baseUrl, "GET", "/v1/users/me", { token: made.api_key })).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    let text = await scrape(metricsUrl, null);
    expect(value(text, "fleet_rate_limit_refusals_total", { bucket: "credential" })).toBe(1);
    expect(value(text, "fleet_http_requests_total", { route: "/v1/users/me", status: "429" })).toBe(1);

    const port = Number(new URL(api.baseUrl).port);
    const held = [await heldRequest(port), await heldRequest(port)];
    try {
      const refused = await callAt(api.baseUrl, "GET", "/v1/users/me");
      expectProblem(refused, 429, "UZ-API-001");
      // Health and metrics are never counted against the ceiling.
      expect((await callAt(api.baseUrl, "GET", "/healthz")).status).toBe(200);
      text = await scrape(metricsUrl, null);
      expect(value(text, "fleet_rate_limit_refusals_total", { bucket: "in_flight" })).toBe(1);
    } finally {
      for (const socket of held) socket.destroy();
    }
  });
});
