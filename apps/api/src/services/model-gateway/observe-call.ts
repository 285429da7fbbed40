import { Problem } from "@fleet/contracts";
import type { ModelCallOutcome } from "../../runtime/model-call-metrics.ts";
import type { ServiceContext } from "../shared/context.ts";
import type { CallUsage } from "./meter.ts";
import type { Target } from "./resolve.ts";

/** The outcome a refusal after forwarding stands for (failures.ts's codes). */
const outcomes: Record<string, ModelCallOutcome> = {
  "UZ-MODEL-002": "unreachable",
  "UZ-MODEL-003": "timeout",
  "UZ-MODEL-004": "rate_limited",
  "UZ-MODEL-005": "key_refused",
  "UZ-MODEL-006": "bad_request",
};

/** The outcome of a call that threw once its target was resolved. */
export function failedOutcome(error: unknown): ModelCallOutcome {
  return error instanceof Problem ? (outcomes[error.code] ?? "error") : "error";
}

/** Records one call in the metrics and the run's trace, when either is kept; `end` counts once. */
export interface CallObserver {
  end(outcome: ModelCallOutcome, usage: CallUsage | null): void;
  /** Wraps a streamed answer: notes its first chunk, and ends as ok, broken or abandoned. */
  watch(body: AsyncIterable<string>, usage: () => CallUsage | null): AsyncGenerator<string>;
}

export function observeCall(
  ctx: ServiceContext,
  run: { leaseId: string; eventId: string },
  target: Target,
  stream: boolean,
  startedMs: number,
): CallObserver {
  const metrics = ctx.metrics ?? null;
  const tracing = ctx.tracing ?? null;
  let firstChunkSeconds: number | null = null;
  let ended = false;
  const end = (outcome: ModelCallOutcome, usage: CallUsage | null) => {
    if (ended || (metrics === null && tracing === null)) return;
    ended = true;
    const call = {
      provider: target.provider,
      model: target.model,
      stream,
      outcome,
      seconds: (performance.now() - startedMs) / 1000,
      firstChunkSeconds,
      usage,
    };
    metrics?.modelCall(call);
    tracing?.modelCall(run, call, ctx.now());
  };
  return {
    end,
    async *watch(body, usage) {
      if (metrics === null && tracing === null) return yield* body;
      let outcome: ModelCallOutcome = "abandoned";
      try {
        for await (const piece of body) {
          if (firstChunkSeconds === null) firstChunkSeconds = (performance.now() - startedMs) / 1000;
          if (piece.startsWith('data: {"error":')) outcome = "broken";
          yield piece;
        }
        if (outcome === "abandoned") outcome = "ok";
      } finally {
        end(outcome, usage());
      }
    },
  };
}
