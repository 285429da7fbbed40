import { Agent, type IncomingMessage, request } from "node:http";
import type { FakeModelVendor } from "@fleet/testing/fake-model-vendor";
import { cpuTimeMs, othersMeter } from "./processes.ts";

/**
 * The gateway suite's load: one chat completion call timed to its first body byte and to its end, over
 * kept-alive node:http connections, and the phases built from it (paired latency samples, and many
 * concurrent streams against one server while its CPU time is read).
 */
export interface Target {
  url: string;
  headers: Record<string, string>;
}

export interface Timing {
  status: number;
  /** From the request's start to the answer's first body bytes (a stream's first chunk). */
  firstMs: number;
  totalMs: number;
}

const agent = new Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY });

export const MESSAGES = [{ role: "user", content: "Say hello in one short sentence." }];

/**
 * POSTs `payload` to the target over the kept-alive agent; `onAnswer` reads the answer and settles the
 * promise it is given, a failed request rejects it.
 */
export function post<T>(
  target: Target,
  payload: string,
  onAnswer: (answer: IncomingMessage, resolve: (value: T) => void, reject: (error: Error) => void) => void,
): Promise<T> {
  const url = new URL(target.url);
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        agent,
        host: url.hostname,
        port: url.port,
        method: "POST",
        path: url.pathname,
        headers: {
          ...target.headers,
          "content-type": "application/json",
          "content-length": String(Buffer.byteLength(payload)),
        },
      },
      (answer) => {
        answer.on("error", reject);
        onAnswer(answer, resolve, reject);
      },
    );
    outgoing.on("error", reject);
    outgoing.end(payload);
  });
}

/** One call; the body is read and dropped, the times taken at its first bytes and at its end. */
export function timedCall(target: Target, stream: boolean): Promise<Timing> {
  const payload = JSON.stringify({
    model: "gpt-4o-mini",
    messages: MESSAGES,
    ...(stream ? { stream: true, stream_options: { include_usage: true } } : {}),
  });
  const started = performance.now();
  let firstMs = Number.NaN;
  return post(target, payload, (answer, resolve) => {
    answer.on("data", () => {
      if (Number.isNaN(firstMs)) firstMs = performance.now() - started;
    });
    answer.on("end", () =>
      resolve({ status: answer.statusCode ?? 0, firstMs, totalMs: performance.now() - started }),
    );
  });
}

export interface Latencies {
  p50: number;
  p99: number;
  max: number;
  count: number;
}

export function latencies(values: number[]): Latencies {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
  return { p50: at(50), p99: at(99), max: sorted.at(-1) ?? NaN, count: sorted.length };
}

export interface Paired {
  direct: Latencies;
  gateway: Latencies;
  /** Share of the machine's CPU other processes used meanwhile (0..1), when /proc tells. */
  others: number | undefined;
  failures: number;
}

/**
 * The vendor called directly and through the gateway, one call at a time, alternating, for `seconds`
 * after `warmupSeconds`: drift of a shared machine falls on both alike. `pick` takes the time measured.
 */
export async function pairedCalls(
  direct: Target,
  gateway: Target,
  options: { stream: boolean; seconds: number; warmupSeconds: number; pids: (number | undefined)[] },
  pick: (timing: Timing) => number,
): Promise<Paired> {
  const run = async (seconds: number, keep: boolean) => {
    const times = { direct: [] as number[], gateway: [] as number[] };
    let failures = 0;
    const until = performance.now() + seconds * 1000;
    while (performance.now() < until) {
      for (const [side, target] of [
        ["direct", direct],
        ["gateway", gateway],
      ] as const) {
        const timing = await timedCall(target, options.stream);
        if (timing.status !== 200) failures++;
        else if (keep) times[side].push(pick(timing));
      }
    }
    return { times, failures };
  };
  await run(options.warmupSeconds, false);
  const others = othersMeter(options.pids);
  const { times, failures } = await run(options.seconds, true);
  return {
    direct: latencies(times.direct),
    gateway: latencies(times.gateway),
    others: others(),
    failures,
  };
}

export interface Concurrent {
  calls: number;
  failures: number;
  /** The failures by status (0: the connection failed). */
  failed: Record<number, number>;
  /** The server process's CPU time per completed call, in ms. */
  cpuMsPerCall: number;
  others: number | undefined;
}

/** A longer streamed answer for the concurrency phase: many chunks, paced like a model writing. */
const STREAMED = {
  kind: "answer" as const,
  text: "The quick brown fox jumps over the lazy dog. ".repeat(10),
  chunks: 20,
  chunkDelayMs: 2,
};

/**
 * `concurrency` clients each streaming one call after another to `targetOf(client)` for `seconds`; the
 * server's CPU time over the completed calls. Each call queues one scripted answer at the vendor first.
 */
export async function concurrentStreams(
  vendor: FakeModelVendor,
  serverPid: number | undefined,
  targetOf: (client: number) => Target,
  options: { concurrency: number; seconds: number },
): Promise<Concurrent> {
  let calls = 0;
  let failures = 0;
  const failed: Record<number, number> = {};
  const cpuBefore = cpuTimeMs(serverPid);
  const others = othersMeter([serverPid]);
  const until = performance.now() + options.seconds * 1000;
  const client = async (index: number) => {
    const target = targetOf(index);
    while (performance.now() < until) {
      vendor.script(STREAMED);
      const timing = await timedCall(target, true).catch(() => ({ status: 0 }));
      if (timing.status === 200) calls++;
      else {
        failures++;
        failed[timing.status] = (failed[timing.status] ?? 0) + 1;
      }
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, (_, index) => client(index)));
  const cpuAfter = cpuTimeMs(serverPid);
  vendor.calls.length = 0;
  return {
    calls,
    failures,
    failed,
    cpuMsPerCall:
      cpuBefore === undefined || cpuAfter === undefined || calls === 0
        ? Number.NaN
        : (cpuAfter - cpuBefore) / calls,
    others: others(),
  };
}
