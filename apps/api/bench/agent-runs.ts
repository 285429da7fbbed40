import type { VendorScript } from "@fleet/testing/fake-model-vendor";
import { cpuTimeMs, othersMeter, type Server } from "./processes.ts";

/**
 * What the agent suite's runs are (bench/agent.ts): the mark each message carries, the fake vendor's
 * answer to each call by its mark, what the live tail saw of each event, and the round of runs sent at once
 * with its checks.
 */
export interface ConcurrentRound {
  runs: number;
  processed: number;
  /** Runs whose frames differ from what the run sent (missing or extra chunk text, tool frames, completion). */
  framesLost: number;
  frames: number;
  /** Runs that made more model calls than their step cap, took longer than their time bound, or failed. */
  overBounds: number;
  failures: string[];
  peakInFlight: number;
  /** From the messages sent until the runner had started as many runs as it has slots (or all of them). */
  fillSeconds: number | undefined;
  seconds: number;
  runnerCpuMsPerRun: number | undefined;
  apiCpuMsPerRun: number | undefined;
  others: number | undefined;
}

/** The definition's step cap; each run makes two model calls (the tool call, then the answer). */
export const MAX_STEPS = 4;
/** The runner's run-time bound (FLEET_RUNNER_AGENT_MAX_MS): generous, the figure is that none is over it. */
export const MAX_RUN_MS = 120_000;
/**
 * A concurrent run's answer: 40 pieces, 100 ms apart (about 4 s, a model writing ~40 tokens a second), so
 * the runs overlap: the runner's slots fill before the first runs end.
 */
const ANSWER = "The service answered and the run is done; this sentence pads the stream. ".repeat(6);
const ANSWER_PACE = { chunks: 40, chunkDelayMs: 100 };
/** A load run's text on the live tail: the tool call step's, then the answer's after a blank line. */
const FRAMED_TEXT = `Reading the service.\n\n${ANSWER}`.trim();

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What the bench asks: `[bench <kind> <n>]` in the message, which the vendor and the service read back. */
export type RunKind = "chunk" | "gate" | "load";
const MARK = /\[bench (chunk|gate|load) (\d+)\]/;

interface ChatMessage {
  role: string;
  content?: unknown;
}

/** The run a completion call belongs to (its message's mark) and whether its tool already answered. */
export function callOf(body: unknown): { kind: RunKind; n: string; toolAnswered: boolean } | undefined {
  const messages = (body as { messages?: ChatMessage[] }).messages ?? [];
  const user = messages.findLastIndex((message) => message.role === "user");
  const mark = MARK.exec(JSON.stringify(messages[user]?.content ?? ""));
  if (mark === null) return undefined;
  const toolAnswered = messages.slice(user).some((message) => message.role === "tool");
  return { kind: mark[1] as RunKind, n: mark[2]!, toolAnswered };
}

/**
 * The model: a `chunk` run answers text at once; a `gate` or `load` run first calls `http_request` on
 * the bench's service (`/<kind>/<n>`), then answers (at once for `gate`, paced for `load`).
 */
export function responder(servicePort: number) {
  return (body: unknown): VendorScript | undefined => {
    const call = callOf(body);
    if (call === undefined) return undefined;
    if (call.kind === "chunk") return { kind: "answer", text: `Answer ${call.n}.` };
    if (call.toolAnswered)
      return call.kind === "load"
        ? { kind: "answer", text: ANSWER, ...ANSWER_PACE }
        : { kind: "answer", text: `Done ${call.n}.` };
    const url = `http://127.0.0.1:${servicePort}/${call.kind}/${call.n}`;
    return {
      kind: "answer",
      text: "Reading the service.",
      toolCalls: [{ id: `call_${call.n}`, name: "http_request", arguments: JSON.stringify({ url }) }],
    };
  };
}

export interface Frame {
  kind: string;
  event_id: string | null;
  at: number;
  payload: Record<string, unknown>;
}

/** What the tail saw of one event. */
interface Seen {
  firstChunkAt?: number;
  text: string;
  chunks: number;
  started: number;
  completed: number;
  gateId?: string;
  gateOpenedAt?: number;
  complete?: { at: number; status: string; wallMs?: number; failure?: string };
}

/** The live tail's frames by event, and a way to wait until one of them shows something. */
export class Frames {
  readonly events = new Map<string, Seen>();
  private waiters: { test: () => boolean; resolve: () => void }[] = [];

  of(eventId: string): Seen {
    let seen = this.events.get(eventId);
    if (seen === undefined) {
      seen = { text: "", chunks: 0, started: 0, completed: 0 };
      this.events.set(eventId, seen);
    }
    return seen;
  }

  receive(kind: string, frame: Frame, now: number): void {
    if (frame.event_id === null) return;
    const seen = this.of(frame.event_id);
    const payload = frame.payload;
    if (kind === "chunk") {
      seen.firstChunkAt ??= now;
      seen.text += String(payload.text ?? "");
      seen.chunks++;
    } else if (kind === "tool_call_started") seen.started++;
    else if (kind === "tool_call_completed") seen.completed++;
    else if (kind === "gate_opened") {
      seen.gateId = String(payload.gate_id);
      seen.gateOpenedAt = now;
    } else if (kind === "event_complete")
      seen.complete = {
        at: frame.at,
        status: String(payload.status),
        ...(typeof payload.wall_ms === "number" ? { wallMs: payload.wall_ms } : {}),
        ...(typeof payload.failure_label === "string" ? { failure: payload.failure_label } : {}),
      };
    this.waiters = this.waiters.filter((waiter) => {
      if (!waiter.test()) return true;
      waiter.resolve();
      return false;
    });
  }

  /** Resolves once `test` holds (checked as frames arrive); fails after `ms`. */
  until(what: string, test: () => boolean, ms = 30_000): Promise<void> {
    if (test()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), ms);
      this.waiters.push({
        test,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      });
    });
  }
}

/** The runs of one moment: intervals [start, end] → the most that overlapped. */
function peakOverlap(intervals: [number, number][]): number {
  const edges = intervals.flatMap(([from, to]) => [
    [from, 1],
    [to, -1],
  ]);
  edges.sort((a, b) => a[0]! - b[0]! || a[1]! - b[1]!);
  let now = 0;
  let peak = 0;
  for (const [, step] of edges) {
    now += step!;
    peak = Math.max(peak, now);
  }
  return peak;
}

/** Seconds from `from` (epoch ms) until the `slots`-th run started; undefined when fewer started. */
function fillTime(intervals: [number, number][], slots: number, from: number): number | undefined {
  const starts = intervals.map(([start]) => start).sort((a, b) => a - b);
  const at = starts[slots - 1];
  return at === undefined ? undefined : (at - from) / 1000;
}

/**
 * One message to each fleet at once; waits for every run's completion, then checks each run's frames
 * against what it sent (one started and one completed tool frame, its answer's text whole in its chunk
 * frames, a completion) and its bounds (model calls at the vendor ≤ the step cap, its wall time, its
 * outcome).
 */
export async function concurrentRound(
  round: number,
  fleets: string[],
  bench: {
    message: (fleetId: string, kind: RunKind, n: number) => Promise<string>;
    frames: Frames;
    vendor: { calls: { body: unknown; at: number }[] };
    pids: (number | undefined)[];
    api: Server;
    runner: Server;
    workerCount: number;
  },
): Promise<ConcurrentRound> {
  const { frames, vendor } = bench;
  const callsBefore = vendor.calls.length;
  const cpu = (server: Server) => cpuTimeMs(server.child.pid);
  const runnerBefore = cpu(bench.runner);
  const apiBefore = cpu(bench.api);
  const others = othersMeter(bench.pids);
  const started = performance.now();
  const startedWall = Date.now();
  const numbers = fleets.map((_, i) => round * fleets.length + i);
  const eventIds = await Promise.all(fleets.map((fleetId, i) => bench.message(fleetId, "load", numbers[i]!)));
  await frames.until(
    `${eventIds.length} runs to complete`,
    () => eventIds.every((id) => frames.of(id).complete !== undefined),
    MAX_RUN_MS + 30_000,
  );
  // Frames published just before a completion may be flushed with or after it: a moment for stragglers.
  await sleep(500);
  const seconds = (performance.now() - started) / 1000;
  const runnerCpu = cpu(bench.runner);
  const apiCpu = cpu(bench.api);
  const calls = new Map<string, number[]>();
  for (const call of vendor.calls.slice(callsBefore)) {
    const of = callOf(call.body);
    if (of?.kind === "load") calls.set(of.n, [...(calls.get(of.n) ?? []), call.at]);
  }
  let processed = 0;
  let framesLost = 0;
  let frameCount = 0;
  let overBounds = 0;
  const failures: string[] = [];
  const intervals: [number, number][] = [];
  for (const [i, eventId] of eventIds.entries()) {
    const seen = frames.of(eventId);
    const complete = seen.complete!;
    const steps = calls.get(String(numbers[i]))?.length ?? 0;
    frameCount += seen.chunks + seen.started + seen.completed + 1;
    if (complete.status === "processed") processed++;
    else failures.push(`${complete.status}${complete.failure ? ` (${complete.failure})` : ""}`);
    if (seen.started !== 1 || seen.completed !== 1 || seen.text.trim() !== FRAMED_TEXT) framesLost++;
    if (complete.status !== "processed" || steps > MAX_STEPS || (complete.wallMs ?? 0) > MAX_RUN_MS)
      overBounds++;
    const first = calls.get(String(numbers[i]))?.[0];
    if (first !== undefined) intervals.push([first, complete.at]);
  }
  const perRun = (after: number | undefined, before: number | undefined) =>
    after === undefined || before === undefined ? undefined : (after - before) / eventIds.length;
  return {
    runs: eventIds.length,
    processed,
    framesLost,
    frames: frameCount,
    overBounds,
    failures: [...new Set(failures)],
    peakInFlight: peakOverlap(intervals),
    fillSeconds: fillTime(intervals, Math.min(bench.workerCount, eventIds.length), startedWall),
    seconds,
    runnerCpuMsPerRun: perRun(runnerCpu, runnerBefore),
    apiCpuMsPerRun: perRun(apiCpu, apiBefore),
    others: others(),
  };
}
