import { createServer, type Server } from "node:http";
import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../src/env.ts";
import { runTraceId } from "../src/runtime/tracing.ts";
import { createApp } from "../src/server.ts";
import { bootstrapTenant } from "../src/services/tenants/tenants.ts";
import { gateIn } from "./approval-fixtures.ts";
import { labelledFleet, messageFleet, uniqueLabel } from "./fleet-fixtures.ts";
import {
  call,
  callAt,
  databaseKind,
  seedTenant,
  startApi,
  type TestApi,
  testApi,
  testDatabaseUrl,
  useIsolatedApi,
} from "./harness.ts";
import { acquire, enrollRunner, report } from "./runner-fixtures.ts";

const TOKEN = "scrape-token-0123456789abcdef";

/** One sample of the exposition: a metric name and its labels. */
interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

function samples(text: string): Sample[] {
  const found: Sample[] = [];
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (match === null) throw new Error(`not an exposition line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, key, value] of (match[2] ?? "").matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g))
      labels[key!] = value!;
    found.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return found;
}

/** The value of the one sample with this name and (at least) these labels; undefined when there is none. */
function value(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const matching = samples(text).filter(
    (sample) =>
      sample.name === name && Object.entries(labels).every(([key, want]) => sample.labels[key] === want),
  );
  expect(matching.length, `${name} ${JSON.stringify(labels)}`).toBeLessThanOrEqual(1);
  return matching[0]?.value;
}

async function scrape(baseUrl: string, token: string | null = TOKEN): Promise<string> {
  const answer = await callAt(baseUrl, "GET", "/metrics", token === null ? {} : { token });
  expect(answer.status, answer.text).toBe(200);
  expect(answer.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
  return answer.text;
}

function expectProblem(
  answer: { status: number; headers: Headers; body: unknown },
  status: number,
  code: string,
) {
  expect(answer.status).toBe(status);
  expect(answer.headers.get("content-type")).toMatch(/^application\/problem\+json/);
  expect(answer.body).toMatchObject({ error_code: code });
}

/** A tiny OTLP/HTTP receiver: keeps every span of every JSON export it is sent. */
interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: Record<string, string | number>;
}

function otlpReceiver(): Promise<{ url: string; spans: ReceivedSpan[]; server: Server }> {
  const spans: ReceivedSpan[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      expect(request.url).toBe("/v1/traces");
      expect(request.headers["content-type"]).toMatch(/^application\/json/);
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      for (const resource of body.resourceSpans ?? [])
        for (const scope of resource.scopeSpans ?? [])
          for (const span of scope.spans ?? []) {
            const attributes: Record<string, string | number> = {};
            for (const { key, value: v } of span.attributes ?? [])
              attributes[key] = v.stringValue ?? Number(v.intValue ?? v.doubleValue);
            attributes["service.name"] =
              resource.resource?.attributes?.find((a: { key: string }) => a.key === "service.name")?.value
                ?.stringValue ?? "";
            spans.push({ ...span, attributes });
          }
      response.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      resolve({ url: `http://127.0.0.1:${port}`, spans, server });
    }),
  );
}

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

const receiver = await otlpReceiver();
// After the API that exports to it has closed (and flushed).
afterAll(() => new Promise<void>((resolve) => receiver.server.close(() => resolve())));

describe("metrics with a scrape token, and traces", () => {
  // Runners lease any tenant's waiting work: this block runs on a database of its own.
  useIsolatedApi({
    FLEET_METRICS_TOKEN: TOKEN,
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
    OTEL_SERVICE_NAME: "fleet-test",
  });

  it("counts a run's lease outcomes and a pending gate, and exports the run as one trace", async () => {
    const api = await testApi();
    const tenant = await seedTenant();
    const label = uniqueLabel();
    const fleetId = await labelledFleet(tenant, label);
    const eventId = await messageFleet(tenant, fleetId, "count this");
    const runner = await enrollRunner({ labels: [label] });
    const leased = await acquire(runner);
    const lease = leased.body.lease!;
    expect(lease.event_id).toBe(eventId);
    const renewed = await call("POST", `/v1/runners/me/leases/${lease.lease_id}/renew`, {
      token: runner.token,
      body: { fencing_token: lease.fencing_token },
    });
    expect(renewed.status).toBe(200);
    const published = await call("POST", `/v1/runners/me/leases/${lease.lease_id}/activity`, {
      token: runner.token,
      body: {
        frames: [
          { tool_call_started: { name: "web_search", args_redacted: "{}" } },
          { tool_call_completed: { name: "web_search", ms: 40 } },
        ],
      },
    });
    expect(published.status, published.text).toBe(202);
    const done = await report(runner, lease, {
      tokens: 120,
      input_tokens: 100,
      output_tokens: 20,
      cost_nanos: 5000,
      model: "test-model",
    });
    expect(done.status, done.text).toBe(200);
    await gateIn(await seedTenant()); // a second lease (acquired), holding one pending gate

    const text = await scrape(api.baseUrl);
    expect(value(text, "fleet_leases_total", { outcome: "acquired" })).toBe(2);
    expect(value(text, "fleet_leases_total", { outcome: "renewed" })).toBe(1);
    expect(value(text, "fleet_leases_total", { outcome: "succeeded" })).toBe(1);
    expect(value(text, "fleet_leases_total", { outcome: "failed" })).toBe(0);
    expect(value(text, "fleet_gates_pending")).toBe(1);
    // PostgreSQL's pool says how many calls hold it and wait for it; PGlite is one connection.
    if (databaseKind === "postgres") {
      expect(value(text, "fleet_db_pool_size")).toBe(5); // the harness opens pools of 5
      expect(value(text, "fleet_db_pool_active")).toBeGreaterThanOrEqual(0);
      expect(value(text, "fleet_db_pool_waiting")).toBe(0);
    } else {
      expect(value(text, "fleet_db_pool_size")).toBe(1);
      expect(value(text, "fleet_db_pool_active")).toBeUndefined();
    }

    await api.app.services.tracing!.flush();
    const run = receiver.spans.filter((span) => span.traceId === runTraceId(eventId));
    const byName = new Map(run.map((span) => [span.name, span]));
    expect([...byName.keys()].sort()).toEqual([
      "fleet.event.received",
      "fleet.lease",
      "fleet.lease.acquire",
      "fleet.run",
      "fleet.tool_call",
    ]);
    const root = byName.get("fleet.run")!;
    expect(root.parentSpanId ?? "").toBe("");
    for (const name of ["fleet.event.received", "fleet.lease.acquire", "fleet.lease"])
      expect(byName.get(name)!.parentSpanId, name).toBe(root.spanId);
    expect(byName.get("fleet.tool_call")!.parentSpanId).toBe(byName.get("fleet.lease")!.spanId);
    expect(byName.get("fleet.tool_call")!.attributes).toMatchObject({ "gen_ai.tool.name": "web_search" });
    const toolSpan = byName.get("fleet.tool_call")!;
    expect(BigInt(toolSpan.endTimeUnixNano) - BigInt(toolSpan.startTimeUnixNano)).toBe(40_000_000n);
    for (const span of [root, byName.get("fleet.lease")!])
      expect(span.attributes).toMatchObject({
        "fleet.outcome": "succeeded",
        "fleet.tokens": 120,
        "gen_ai.usage.input_tokens": 100,
        "gen_ai.usage.output_tokens": 20,
        "fleet.cost_nanos": 5000,
        "gen_ai.request.model": "test-model",
        "service.name": "fleet-test",
      });
    expect(byName.get("fleet.lease.acquire")!.attributes).toMatchObject({
      "fleet.lease_id": lease.lease_id,
      "fleet.lease.kind": "fresh",
    });

    // The report's request span: its route pattern and status, nothing naming the tenant.
    const requests = receiver.spans.filter((span) => span.name === "POST /v1/runners/me/reports");
    expect(requests).toHaveLength(1);
    expect(requests[0]!.attributes).toMatchObject({
      "http.request.method": "POST",
      "http.route": "/v1/runners/me/reports",
      "http.response.status_code": 200,
    });
    const activity = receiver.spans.find((span) =>
      span.attributes["http.route"]?.toString().endsWith("/activity"),
    );
    expect(activity?.name).toBe("POST /v1/runners/me/leases/:lease_id/activity");
    const exported = JSON.stringify(receiver.spans.filter((span) => span.name.includes(" ")));
    for (const secret of [tenant.tenantId, tenant.workspaceId, tenant.apiKey, runner.token])
      expect(exported).not.toContain(secret);
  });

  it("joins a caller's trace named by its traceparent header", async () => {
    const api = await testApi();
    const traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
    const answer = await callAt(api.baseUrl, "GET", "/healthz", {
      headers: { traceparent: `00-${traceId}-00f067aa0ba902b7-01` },
    });
    expect(answer.status).toBe(200);
    await api.app.services.tracing!.flush();
    const span = receiver.spans.find((s) => s.traceId === traceId);
    expect(span).toMatchObject({ name: "GET /healthz", parentSpanId: "00f067aa0ba902b7" });
  });

  it("refuses a scrape without the token, or with another, with 401 and no token in the body", async () => {
    const api = await testApi();
    const missing = await callAt(api.baseUrl, "GET", "/metrics");
    expectProblem(missing, 401, "UZ-AUTH-001");
    expect(missing.headers.get("www-authenticate")).toMatch(/^Bearer/);
    for (const wrong of [`${TOKEN}x`, TOKEN.slice(0, -1), "x"]) {
      const answer = await callAt(api.baseUrl, "GET", "/metrics", {
        headers: { authorization: `Bearer ${wrong}` },
      });
      expectProblem(answer, 401, "UZ-AUTH-002");
      expect(answer.text).not.toContain(TOKEN.slice(0, 8));
    }
    const basic = await callAt(api.baseUrl, "GET", "/metrics", {
      headers: { authorization: `Basic ${TOKEN}` },
    });
    expectProblem(basic, 401, "UZ-AUTH-002");
  });

  it("labels requests by route pattern or operation id, never by a path carrying ids", async () => {
    const api = await testApi();
    const tenant = await seedTenant();
    const me = await call("GET", "/v1/users/me", { token: tenant.apiKey });
    expect(me.status).toBe(200);
    const listed = await call("GET", `/v1/workspaces/${tenant.workspaceId}/fleets`, { token: tenant.apiKey });
    expect(listed.status).toBe(200);
    const overTrpc = await call("GET", "/trpc/users.getMe", { token: tenant.apiKey });
    expect(overTrpc.status).toBe(200);
    const probe = `/v1/made-up/${tenant.workspaceId}`;
    expect((await call("GET", probe, { token: tenant.apiKey })).status).toBe(404);
    // A body the route refuses before its handler runs still carries the route's pattern.
    const notJson = await call("POST", `/v1/workspaces/${tenant.workspaceId}/fleets`, {
      token: tenant.apiKey,
      rawBody: "{",
      headers: { "content-type": "application/json" },
    });
    expect(notJson.status).toBe(400);

    const text = await scrape(api.baseUrl);
    const requests = { name: "fleet_http_requests_total" };
    expect(
      value(text, requests.name, { method: "GET", route: "/v1/users/me", status: "200" }),
    ).toBeGreaterThanOrEqual(1);
    const fleets = "/v1/workspaces/:workspace_id/fleets";
    expect(
      value(text, requests.name, { method: "GET", route: fleets, status: "200" }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      value(text, requests.name, { method: "POST", route: fleets, status: "400" }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      value(text, requests.name, { method: "GET", route: "/trpc/users.getMe", status: "200" }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      value(text, requests.name, { method: "GET", route: "unmatched", status: "404" }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      value(text, "fleet_http_request_duration_seconds_bucket", {
        method: "GET",
        route: "/v1/users/me",
        status: "200",
        le: "+Inf",
      }),
    ).toBeGreaterThanOrEqual(1);
    for (const name of [
      "process_cpu_user_seconds_total",
      "nodejs_heap_size_used_bytes",
      "fleet_db_pool_size",
    ])
      expect(value(text, name), name).toBeDefined();
    for (const secret of [tenant.tenantId, tenant.workspaceId, tenant.apiKey, tenant.userId])
      expect(text).not.toContain(secret);
    const routes = new Set(
      samples(text).flatMap((s) => (s.labels.route === undefined ? [] : [s.labels.route])),
    );
    for (const route of routes) expect(route, route).toMatch(/^(unmatched|\/[\w/.:-]*)$/);
    for (const route of routes) expect(route).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-/);
  });

  it("reports the live-tail streams through the registration hook, read at each scrape", async () => {
    const api = await testApi();
    let counts = { open: 3, published: 10, dropped: 1 };
    api.app.services.metrics!.observeStreams(() => counts);
    const first = await scrape(api.baseUrl);
    expect(value(first, "fleet_stream_open")).toBe(3);
    expect(value(first, "fleet_stream_frames_published_total")).toBe(10);
    expect(value(first, "fleet_stream_frames_dropped_total")).toBe(1);
    counts = { open: 1, published: 25, dropped: 4 };
    const second = await scrape(api.baseUrl);
    expect(value(second, "fleet_stream_open")).toBe(1);
    expect(value(second, "fleet_stream_frames_published_total")).toBe(25);
    expect(value(second, "fleet_stream_frames_dropped_total")).toBe(4);
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
