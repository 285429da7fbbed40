import { afterAll, describe, expect, it } from "vitest";
import { runTraceId } from "../src/runtime/tracing.ts";
import { gateIn } from "./approval-fixtures.ts";
import { labelledFleet, messageFleet, uniqueLabel } from "./fleet-fixtures.ts";
import { call, callAt, databaseKind, seedTenant, testApi, useIsolatedApi } from "./harness.ts";
import { expectProblem, samples, scrape, TOKEN, value } from "./metrics-fixtures.ts";
import { otlpReceiver } from "./otlp-receiver.ts";
import { acquire, enrollRunner, report } from "./runner-fixtures.ts";

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
