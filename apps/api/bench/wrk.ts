import type { ChildProcess } from "node:child_process";
import { cpuTimeMs, pinToCpus, startProcess } from "./processes.ts";

export interface WrkResult {
  requestsPerSec: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  /** Responses outside 2xx/3xx: a bench of 401s would look fast, so these are always shown. */
  non2xx: number;
  socketErrors: number;
}

export interface WrkRun extends WrkResult {
  /** wrk's own CPU time, sampled every 200 ms while it ran (its /proc entry is gone once it exits). */
  cpuMs: number;
}

export interface WrkOptions {
  seconds: number;
  connections?: number;
  headers?: Record<string, string>;
  /** A wrk Lua script (e.g. one that spreads POSTs over many paths). */
  script?: string;
  /** Keep wrk on these CPUs (`taskset -c` syntax). */
  cpus?: string;
}

const UNIT_MS: Record<string, number> = { us: 0.001, ms: 1, s: 1_000, m: 60_000 };

/** wrk prints durations with a unit: `812.00us`, `5.34ms`, `1.02s`. */
export function parseDurationMs(text: string): number {
  const match = /^([\d.]+)(us|ms|s|m)$/.exec(text.trim());
  if (!match) throw new Error(`unrecognised wrk duration: ${text}`);
  return Number(match[1]) * UNIT_MS[match[2]!]!;
}

export function parseWrkOutput(output: string): WrkResult {
  const number = (pattern: RegExp, fallback?: number): number => {
    const match = pattern.exec(output);
    if (match) return Number(match[1]);
    if (fallback !== undefined) return fallback;
    throw new Error(`wrk output lacks ${pattern}:\n${output}`);
  };
  const percentile = (p: string): number => {
    const match = new RegExp(`^\\s*${p}%\\s+(\\S+)`, "m").exec(output);
    if (!match) throw new Error(`wrk output lacks the ${p}% line (was --latency passed?):\n${output}`);
    return parseDurationMs(match[1]!);
  };
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(output);
  return {
    requestsPerSec: number(/^Requests\/sec:\s+([\d.]+)/m),
    p50Ms: percentile("50"),
    p99Ms: percentile("99"),
    requests: number(/^\s*(\d+) requests in /m),
    non2xx: number(/Non-2xx or 3xx responses: (\d+)/, 0),
    socketErrors: socket ? socket.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0,
  };
}

function collect(child: ChildProcess): Promise<{ code: number | null; output: string; cpuMs: number }> {
  let output = "";
  let cpuMs = 0;
  const sampler = setInterval(() => {
    cpuMs = cpuTimeMs(child.pid) ?? cpuMs;
  }, 200);
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
    output += chunk;
  });
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    output += chunk;
  });
  return new Promise((resolve, reject) => {
    child.once("error", (error: NodeJS.ErrnoException) => {
      clearInterval(sampler);
      reject(error.code === "ENOENT" ? new Error("wrk is not on PATH (Debian package `wrk`)") : error);
    });
    child.once("close", (code) => {
      clearInterval(sampler);
      resolve({ code, output, cpuMs });
    });
  });
}

/** One wrk run (`-t1`: the other core belongs to the server under test). */
export async function runWrk(url: string, options: WrkOptions): Promise<WrkRun> {
  const args = ["-t1", `-c${options.connections ?? 32}`, `-d${options.seconds}s`, "--latency"];
  for (const [name, value] of Object.entries(options.headers ?? {})) args.push("-H", `${name}: ${value}`);
  if (options.script !== undefined) args.push("-s", options.script);
  args.push(url);
  const child = startProcess(process.env.BENCH_WRK ?? "wrk", args, { stdio: ["ignore", "pipe", "pipe"] });
  if (options.cpus !== undefined) pinToCpus(child.pid, options.cpus);
  const { code, output, cpuMs } = await collect(child);
  if (code !== 0) throw new Error(`wrk exited with ${code}:\n${output}`);
  return { ...parseWrkOutput(output), cpuMs };
}
