import { createHash, randomBytes } from "node:crypto";
import type { Attributes, Context, Tracer } from "@opentelemetry/api";
import type { IdGenerator } from "@opentelemetry/sdk-trace-base";
import type { ModelCall } from "./model-call-metrics.ts";

/** A request as its span records it: no path, no query, nothing naming a tenant. */
export interface RequestSpan {
  method: string;
  route: string;
  status: number;
  requestId: string;
  startMs: number;
  endMs: number;
  /** The caller's W3C `traceparent`, when it sent one: the span joins the caller's trace. */
  traceparent: string | undefined;
}

/** What a report tells the run's trace (docs/decisions/operations.md, "Metrics and traces"). */
export interface RunReport {
  leaseId: string;
  eventId: string;
  outcome: "succeeded" | "failed";
  failureLabel: string | null;
  tokens?: number;
  inputTokens?: number;
  outputTokens?: number;
  cachedTokens?: number;
  costNanos?: number;
  wallMs?: number;
  provider?: string;
  model?: string;
}

/**
 * OpenTelemetry traces, exported over OTLP/HTTP (JSON). Built only when an OTLP endpoint is configured
 * (`startTracing` loads the SDK then); otherwise nothing holds one and nothing of the SDK is loaded.
 *
 * A request gets a server span named `METHOD route`. A run gets a trace of its own whose id is its
 * event's id (a UUID is 128 bits, a trace id too: the hex digits without dashes), so the spans each
 * instance emits as the run moves through requests (the event stored, the lease taken, tool calls, the
 * report) join one trace without any instance telling another. Its spans:
 *
 * - `fleet.run` (the root): from the event's arrival to its report. Its span id is derived from the
 *   event id (the first 8 bytes of SHA-256 of `run:<event id>`), so children emitted before it name it.
 * - `fleet.event.received`: the event stored (a message, a cron fire).
 * - `fleet.lease.acquire`: the event's wait in line, from its arrival until a runner leases it.
 * - `fleet.lease`: the lease, from its grant to its report, with the report's tokens and cost; its span
 *   id is derived from the lease id the same way (`lease:<lease id>`).
 * - `fleet.tool_call`: one per `tool_call_completed` frame, under its lease, ending as it was published
 *   and lasting the frame's `ms`.
 * - `fleet.model_call`: one per gateway call that reached its provider, under its lease, from the call's
 *   arrival to the end of its answer, with the provider, model, outcome and the provider's usage.
 *
 * Start times come from the ids themselves (UUIDv7 carries its millisecond), so no span needs a read.
 */
export interface Tracing {
  request(span: RequestSpan): void;
  eventReceived(eventId: string, eventType: string): void;
  leaseAcquired(
    lease: { leaseId: string; eventId: string; kind: string; fencingToken: number },
    at: number,
  ): void;
  toolCall(lease: { leaseId: string; eventId: string }, name: string, ms: number, at: number): void;
  modelCall(lease: { leaseId: string; eventId: string }, call: ModelCall, at: number): void;
  reported(report: RunReport, at: number): void;
  /** Exports what is buffered now. */
  flush(): Promise<void>;
  /** Exports what is buffered and stops. */
  close(): Promise<void>;
}

/** The trace id of the run of an event: the event's UUID as 32 hex digits. */
export function runTraceId(eventId: string): string {
  return eventId.replaceAll("-", "").toLowerCase();
}

/** A span id derived from a name, so every instance computes the same one. */
export function derivedSpanId(name: string): string {
  return createHash("sha256").update(name).digest("hex").slice(0, 16);
}

/** The millisecond a UUIDv7 was minted at (its first 48 bits). */
export function uuidMs(id: string): number {
  return Number.parseInt(id.slice(0, 8) + id.slice(9, 13), 16);
}

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;
const SAMPLED = 1;
const KIND_SERVER = 1;

/**
 * Random ids, except the next ones asked for when `force` named them: the run's root and lease spans
 * carry ids every instance derives alike. Spans are started synchronously right after `force`, so no
 * other span takes them.
 */
class DerivedIds implements IdGenerator {
  #trace: string | null = null;
  #span: string | null = null;

  force(traceId: string | null, spanId: string): void {
    this.#trace = traceId;
    this.#span = spanId;
  }

  generateTraceId(): string {
    const forced = this.#trace;
    this.#trace = null;
    return forced ?? randomBytes(16).toString("hex");
  }

  generateSpanId(): string {
    const forced = this.#span;
    this.#span = null;
    return forced ?? randomBytes(8).toString("hex");
  }
}

/** Loads the SDK and starts exporting to `url` (an OTLP/HTTP traces endpoint). */
export async function startTracing(url: string, serviceName: string): Promise<Tracing> {
  const [api, sdk, exporter, resources] = await Promise.all([
    import("@opentelemetry/api"),
    import("@opentelemetry/sdk-trace-base"),
    import("@opentelemetry/exporter-trace-otlp-http"),
    import("@opentelemetry/resources"),
  ]);
  const ids = new DerivedIds();
  const provider = new sdk.BasicTracerProvider({
    resource: resources.resourceFromAttributes({ "service.name": serviceName }),
    idGenerator: ids,
    spanProcessors: [new sdk.BatchSpanProcessor(new exporter.OTLPTraceExporter({ url }))],
  });
  const tracer: Tracer = provider.getTracer("fleet-api");
  const parent = (traceId: string, spanId: string): Context =>
    api.trace.setSpanContext(api.ROOT_CONTEXT, { traceId, spanId, traceFlags: SAMPLED, isRemote: true });
  const runParent = (eventId: string) => parent(runTraceId(eventId), derivedSpanId(`run:${eventId}`));
  const emit = (
    name: string,
    startMs: number,
    endMs: number,
    attributes: Attributes,
    context: Context,
    kind = 0,
  ) => tracer.startSpan(name, { startTime: startMs, attributes, kind }, context).end(endMs);

  const usage = (report: RunReport): Attributes => {
    const attributes: Attributes = {
      "fleet.event_id": report.eventId,
      "fleet.lease_id": report.leaseId,
      "fleet.outcome": report.outcome,
    };
    const optional: [string, string | number | null | undefined][] = [
      ["fleet.failure_label", report.failureLabel],
      ["fleet.tokens", report.tokens],
      ["gen_ai.usage.input_tokens", report.inputTokens],
      ["gen_ai.usage.output_tokens", report.outputTokens],
      ["fleet.usage.cached_tokens", report.cachedTokens],
      ["fleet.cost_nanos", report.costNanos],
      ["fleet.wall_ms", report.wallMs],
      ["gen_ai.provider.name", report.provider],
      ["gen_ai.request.model", report.model],
    ];
    for (const [key, value] of optional) if (value !== undefined && value !== null) attributes[key] = value;
    return attributes;
  };

  return {
    request(span) {
      const caller = span.traceparent === undefined ? null : TRACEPARENT.exec(span.traceparent);
      const context =
        caller === null || /^0+$/.test(caller[1]!) || /^0+$/.test(caller[2]!)
          ? api.ROOT_CONTEXT
          : parent(caller[1]!, caller[2]!);
      emit(
        `${span.method} ${span.route}`,
        span.startMs,
        span.endMs,
        {
          "http.request.method": span.method,
          "http.route": span.route,
          "http.response.status_code": span.status,
          "fleet.request_id": span.requestId,
        },
        context,
        KIND_SERVER,
      );
    },
    eventReceived(eventId, eventType) {
      const at = uuidMs(eventId);
      emit(
        "fleet.event.received",
        at,
        at,
        { "fleet.event_id": eventId, "fleet.event_type": eventType },
        runParent(eventId),
      );
    },
    leaseAcquired(lease, at) {
      emit(
        "fleet.lease.acquire",
        uuidMs(lease.eventId),
        at,
        {
          "fleet.event_id": lease.eventId,
          "fleet.lease_id": lease.leaseId,
          "fleet.lease.kind": lease.kind,
          "fleet.lease.fencing_token": lease.fencingToken,
        },
        runParent(lease.eventId),
      );
    },
    toolCall(lease, name, ms, at) {
      const context = parent(runTraceId(lease.eventId), derivedSpanId(`lease:${lease.leaseId}`));
      emit(
        "fleet.tool_call",
        at - ms,
        at,
        { "gen_ai.tool.name": name, "fleet.lease_id": lease.leaseId },
        context,
      );
    },
    modelCall(lease, call, at) {
      const context = parent(runTraceId(lease.eventId), derivedSpanId(`lease:${lease.leaseId}`));
      const attributes: Attributes = {
        "gen_ai.operation.name": "chat",
        "gen_ai.provider.name": call.provider,
        "gen_ai.request.model": call.model,
        "fleet.lease_id": lease.leaseId,
        "fleet.model.stream": call.stream,
        "fleet.model.outcome": call.outcome,
      };
      if (call.firstChunkSeconds !== null)
        attributes["fleet.model.first_chunk_ms"] = Math.round(call.firstChunkSeconds * 1000);
      if (call.usage !== null) {
        attributes["gen_ai.usage.input_tokens"] = call.usage.input_tokens;
        attributes["gen_ai.usage.output_tokens"] = call.usage.output_tokens;
        attributes["fleet.usage.cached_tokens"] = call.usage.cached_tokens;
      }
      emit("fleet.model_call", at - call.seconds * 1000, at, attributes, context);
    },
    reported(report, at) {
      const attributes = usage(report);
      ids.force(null, derivedSpanId(`lease:${report.leaseId}`));
      emit("fleet.lease", uuidMs(report.leaseId), at, attributes, runParent(report.eventId));
      ids.force(runTraceId(report.eventId), derivedSpanId(`run:${report.eventId}`));
      emit("fleet.run", uuidMs(report.eventId), at, attributes, api.ROOT_CONTEXT);
    },
    async flush() {
      await provider.forceFlush();
    },
    async close() {
      await provider.shutdown();
    },
  };
}
