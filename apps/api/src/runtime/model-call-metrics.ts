import { Counter, Histogram, type Registry } from "prom-client";

/** How a gateway call ended (docs/decisions/model-gateway.md, "Observability"). */
export type ModelCallOutcome =
  | "ok"
  | "unreachable"
  | "timeout"
  | "rate_limited"
  | "key_refused"
  | "bad_request"
  | "broken"
  | "abandoned"
  | "error";

/** One gateway call that reached its provider, as the metrics and its span record it. */
export interface ModelCall {
  provider: string;
  model: string;
  stream: boolean;
  outcome: ModelCallOutcome;
  /** From the call's arrival at the gateway to the end of its answer. */
  seconds: number;
  /** Streams: from the arrival to the first chunk passed on; null when none was. */
  firstChunkSeconds: number | null;
  usage: { input_tokens: number; output_tokens: number; cached_tokens: number } | null;
}

/** Call latency bounds, seconds: 10 ms to 2 minutes (the default vendor deadline). */
const CALL_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30, 60, 120];
/** Time-to-first-chunk bounds, seconds: 5 ms to 30 s. */
const FIRST_CHUNK_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/**
 * The gateway's series: `fleet_model_calls_total`, `fleet_model_tokens_total` (by kind: input, output,
 * cached), `fleet_model_call_duration_seconds` and `fleet_model_time_to_first_chunk_seconds`. Labelled by
 * provider and model (a catalogue row's names, never a tenant's id) and the call's outcome.
 */
export class ModelCallSeries {
  readonly #calls: Counter<"provider" | "model" | "outcome">;
  readonly #tokens: Counter<"provider" | "model" | "kind">;
  readonly #duration: Histogram<"provider" | "model" | "outcome">;
  readonly #firstChunk: Histogram<"provider" | "model">;

  constructor(registry: Registry) {
    const registers = [registry];
    this.#calls = new Counter({
      name: "fleet_model_calls_total",
      help: "Model calls the gateway forwarded, by provider, model and outcome.",
      labelNames: ["provider", "model", "outcome"],
      registers,
    });
    this.#tokens = new Counter({
      name: "fleet_model_tokens_total",
      help: "Tokens the providers counted for gateway calls, by kind: input (uncached), output, cached.",
      labelNames: ["provider", "model", "kind"],
      registers,
    });
    this.#duration = new Histogram({
      name: "fleet_model_call_duration_seconds",
      help: "From a gateway call's arrival to the end of its answer, by provider, model and outcome.",
      labelNames: ["provider", "model", "outcome"],
      buckets: CALL_BUCKETS,
      registers,
    });
    this.#firstChunk = new Histogram({
      name: "fleet_model_time_to_first_chunk_seconds",
      help: "Streamed gateway calls: from the call's arrival to its first chunk passed on.",
      labelNames: ["provider", "model"],
      buckets: FIRST_CHUNK_BUCKETS,
      registers,
    });
  }

  observe(call: ModelCall): void {
    const { provider, model, outcome } = call;
    this.#calls.inc({ provider, model, outcome });
    this.#duration.observe({ provider, model, outcome }, call.seconds);
    if (call.firstChunkSeconds !== null)
      this.#firstChunk.observe({ provider, model }, call.firstChunkSeconds);
    if (call.usage !== null) {
      this.#tokens.inc({ provider, model, kind: "input" }, call.usage.input_tokens);
      this.#tokens.inc({ provider, model, kind: "output" }, call.usage.output_tokens);
      this.#tokens.inc({ provider, model, kind: "cached" }, call.usage.cached_tokens);
    }
  }
}
