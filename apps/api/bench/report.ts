import { cpus } from "node:os";
import type { WrkResult } from "./wrk.ts";

export interface Measurement {
  label: string;
  result: WrkResult;
  /** Server CPU time (user + system) per request during the measured run; robust to a busy machine. */
  cpuUsPerRequest?: number;
  /** Share of both cores other processes used during the measured run: what it competed with. */
  othersCpu: number | undefined;
  /** The response body, to check the hand-written route answers what the API answers. */
  body: string;
  /** Anything a reader should know next to the figure (e.g. access-log size). */
  note?: string;
}

/** `pnpm start:api` on an existing PGlite dir: time to `/healthz` (process up) and `/readyz` (serving). */
export interface Startup {
  healthzMs: number[];
  readyzMs: number[];
}

/** Everything one bench run measured; a run left out (PostgreSQL unavailable) is undefined. */
export interface BenchResults {
  hello?: Measurement;
  fastifyPg?: Measurement;
  /** The hand-written route plus the platform's request id and access log, for comparison. */
  fastifyPgPlatform?: Measurement;
  apiPgInfo?: Measurement;
  apiPgWarn?: Measurement;
  fastifyLite?: Measurement;
  apiLite?: Measurement;
  /** A feature's cost measured in turns (issue 15's limiter and metrics): with it, and without. */
  costOn?: Measurement;
  costOff?: Measurement;
  startup: Startup;
  /** Why the PostgreSQL runs were skipped, when they were. */
  skipped?: string;
}

interface Target {
  label: string;
  value: number | undefined;
  format: (value: number) => string;
  goal: string;
  met: (value: number) => boolean;
  /** Refusals and socket errors in the runs the value comes from: any at all and the value is not the figure. */
  errors?: number;
}

/** Non-2xx answers and socket errors of the runs given: a figure read from refusals measures the refusal. */
function errorsIn(...runs: (Measurement | undefined)[]): number {
  return runs.reduce((sum, m) => sum + (m ? m.result.non2xx + m.result.socketErrors : 0), 0);
}

const rps = (value: number) => Math.round(value).toLocaleString("en-US");
const ms = (value: number) => `${value.toFixed(2)} ms`;
const percent = (value: number) => `${(value * 100).toFixed(1)}%`;
const seconds = (value: number) => `${(value / 1000).toFixed(2)} s`;
const atLeast = (goal: number) => (value: number) => value >= goal;
const atMost = (goal: number) => (value: number) => value <= goal;

/** Above this, other processes took a noticeable part of the 2 cores from a run. */
export const OTHERS_BUSY = 0.15;

function ratio(a: Measurement | undefined, b: Measurement | undefined): number | undefined {
  return a && b ? a.result.requestsPerSec / b.result.requestsPerSec : undefined;
}

/** How many requests `a` serves per request of `b` on the same CPU time: b's CPU/req ÷ a's. */
function cpuRatio(a: Measurement | undefined, b: Measurement | undefined): number | undefined {
  return a?.cpuUsPerRequest && b?.cpuUsPerRequest ? b.cpuUsPerRequest / a.cpuUsPerRequest : undefined;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

function table(headers: string[], rows: string[][], rightAligned: boolean[]): string {
  const widths = headers.map((header, column) =>
    Math.max(header.length, ...rows.map((row) => row[column]!.length)),
  );
  const render = (cells: string[]) =>
    cells
      .map((cell, column) =>
        rightAligned[column] ? cell.padStart(widths[column]!) : cell.padEnd(widths[column]!),
      )
      .join("  ")
      .trimEnd();
  const rule = widths.map((width) => "-".repeat(width)).join("  ");
  return [render(headers), rule, ...rows.map(render)].join("\n");
}

function measurementTable(measurements: Measurement[]): string {
  const rows = measurements.map((m) => {
    const errors = m.result.non2xx + m.result.socketErrors;
    return [
      m.label,
      rps(m.result.requestsPerSec),
      ms(m.result.p50Ms),
      ms(m.result.p99Ms),
      m.cpuUsPerRequest === undefined ? "n/a" : `${m.cpuUsPerRequest.toFixed(0)} µs`,
      errors === 0 ? "0" : `${errors} (non-2xx ${m.result.non2xx}, socket ${m.result.socketErrors})`,
      m.othersCpu === undefined ? "n/a" : percent(m.othersCpu),
      m.note ?? "",
    ];
  });
  const headers = ["config", "requests/s", "p50", "p99", "server CPU/req", "errors", "others' CPU", "note"];
  return table(headers, rows, [false, true, true, true, true, true, true, false]);
}

function targets(results: BenchResults): Target[] {
  const { hello, fastifyPg, apiPgInfo, apiPgWarn, apiLite } = results;
  const startupMs = results.startup.healthzMs;
  const perLevel = (api: Measurement | undefined, level: string): Target[] => [
    {
      label: `/v1/users/me (PG, ${level}) ÷ bare hello`,
      value: ratio(api, hello),
      format: percent,
      goal: "≥ 40%",
      met: atLeast(0.4),
      errors: errorsIn(api, hello),
    },
    {
      label: `/v1/users/me (PG, ${level}) p99`,
      value: api?.result.p99Ms,
      format: ms,
      goal: "≤ 5 ms",
      met: atMost(5),
      errors: errorsIn(api),
    },
    {
      label: `/v1/users/me (PG, ${level}) ÷ Fastify /me (PG)`,
      value: ratio(api, fastifyPg),
      format: percent,
      goal: "≥ 80%",
      met: atLeast(0.8),
      errors: errorsIn(api, fastifyPg),
    },
  ];
  const startup = (label: string, value: number | undefined): Target => ({
    label: `pnpm start:api → /healthz, existing PGlite dir, ${label} of ${startupMs.length}`,
    value,
    format: seconds,
    goal: "≤ 3 s",
    met: atMost(3000),
  });
  return [
    ...perLevel(apiPgInfo, "info"),
    ...perLevel(apiPgWarn, "warn"),
    {
      label: "/v1/users/me (PGlite, info) requests/s",
      value: apiLite?.result.requestsPerSec,
      format: rps,
      goal: "≥ 2,500",
      met: atLeast(2500),
      errors: errorsIn(apiLite),
    },
    startup("median", startupMs.length > 0 ? median(startupMs) : undefined),
    startup("best", startupMs.length > 0 ? Math.min(...startupMs) : undefined),
  ];
}

function targetTable(list: Target[]): string {
  const rows = list.map((target) => {
    if (target.value === undefined) return [target.label, "n/a", target.goal, "not measured"];
    const verdict = target.errors
      ? `INVALID: ${target.errors} errors`
      : target.met(target.value)
        ? "met"
        : "MISSED";
    return [target.label, target.format(target.value), target.goal, verdict];
  });
  return table(["figure", "value", "target", "verdict"], rows, [false, true, false, false]);
}

/** Ratios beside their CPU-per-request equivalents, and the checks that make the figures comparable. */
function otherFigures(results: BenchResults): string[] {
  const { hello, fastifyPg, fastifyPgPlatform, apiPgInfo, apiPgWarn, fastifyLite, apiLite, startup } =
    results;
  const pairs: [string, Measurement | undefined, Measurement | undefined][] = [
    ["/v1/users/me (PG, info) ÷ bare hello", apiPgInfo, hello],
    ["/v1/users/me (PG, info) ÷ Fastify /me (PG)", apiPgInfo, fastifyPg],
    ["/v1/users/me (PG, info) ÷ Fastify /me + request id + access log (PG)", apiPgInfo, fastifyPgPlatform],
    ["/v1/users/me (PG, info) ÷ same at warn (the access log)", apiPgInfo, apiPgWarn],
    ["/v1/users/me (PGlite, info) ÷ Fastify /me (PGlite)", apiLite, fastifyLite],
    ["Fastify /me (PG) ÷ bare hello", fastifyPg, hello],
  ];
  const lines: string[] = [];
  for (const [label, a, b] of pairs) {
    const byRps = ratio(a, b);
    const byCpu = cpuRatio(a, b);
    if (byRps === undefined) continue;
    lines.push(
      `  ${label}: ${percent(byRps)}${byCpu === undefined ? "" : `  (by CPU/req: ${percent(byCpu)})`}`,
    );
  }
  if (startup.healthzMs.length > 0) {
    lines.push(`  pnpm start:api → /healthz runs: ${startup.healthzMs.map(seconds).join(", ")}`);
    lines.push(
      `  pnpm start:api → /readyz runs (database open, every route served): ${startup.readyzMs.map(seconds).join(", ")}`,
    );
  }
  if (fastifyPg && apiPgInfo) {
    const same = JSON.stringify(JSON.parse(fastifyPg.body)) === JSON.stringify(JSON.parse(apiPgInfo.body));
    lines.push(`  Fastify /me and /v1/users/me answer the same JSON: ${same ? "yes" : "NO"}`);
  }
  return lines;
}

export function printReport(results: BenchResults, load: { seconds: number; warmupSeconds: number }): void {
  const measured = [
    results.hello,
    results.fastifyPg,
    results.fastifyPgPlatform,
    results.apiPgInfo,
    results.apiPgWarn,
    results.fastifyLite,
    results.apiLite,
  ].filter((entry) => entry !== undefined);
  console.log(
    `\nFleet Control Plane API bench — node ${process.version}, ${cpus().length} CPUs, ` +
      `wrk -t1 -c32 -d${load.seconds}s --latency after a ${load.warmupSeconds}s warm-up, one server at a time\n`,
  );
  console.log(measurementTable(measured));
  if (measured.some((m) => (m.othersCpu ?? 0) > OTHERS_BUSY)) {
    console.log(
      `\nOther processes used over ${percent(OTHERS_BUSY)} of the CPU during some runs ("others' CPU"): their` +
        " requests/s and p99 read low and vary; server CPU/req is the steadier figure.",
    );
  }
  if (results.skipped) console.log(`\nSkipped the PostgreSQL runs — ${results.skipped}`);
  console.log("\nTargets (issue #2)\n");
  console.log(targetTable(targets(results)));
  console.log("\nOther figures (requests/s ratio, and the ratio server CPU per request implies)");
  for (const line of otherFigures(results)) console.log(line);
}

/** Issue 15: what the rate limiter costs `GET /v1/users/me`, as a ratio of one run's two configurations. */
/** A round's pair: the run with the feature and the run without it, taken one after the other. */
export type Pair = readonly [Measurement, Measurement];

export function printLimiterFigures(
  limited: Measurement | undefined,
  unlimited: Measurement | undefined,
  rounds: Pair[] = [],
  sideBySide = false,
): void {
  printCost("Rate limiter cost (issue 15)", "the limiter", 0.05, limited, unlimited, rounds, sideBySide);
}

export function printMetricsFigures(
  on: Measurement | undefined,
  off: Measurement | undefined,
  rounds: Pair[] = [],
  sideBySide = false,
): void {
  printCost("Metrics cost (issue 15 §4)", "metrics", 0.03, on, off, rounds, sideBySide);
}

/** What this tree costs users/me against another checkout's API (`BENCH_BASELINE`), issue 29's ≤ 2 %. */
export function printBaselineFigures(
  on: Measurement | undefined,
  off: Measurement | undefined,
  rounds: Pair[] = [],
  sideBySide = false,
): void {
  printCost(
    "This tree against BENCH_BASELINE (issue 29: per-address buckets, stream shares)",
    "this tree",
    0.02,
    on,
    off,
    rounds,
    sideBySide,
  );
}

/**
 * The throughput and CPU per request a feature costs: the same API and request with it and without.
 * Measured side by side (`sideBySide`: both servers on one core at the same moment), a round's ratio is
 * the servers' CPU per request, without over with: the throughput each would have alone on the core.
 * Measured in turns, it is the two runs' requests/s.
 */
function printCost(
  title: string,
  feature: string,
  target: number,
  on: Measurement | undefined,
  off: Measurement | undefined,
  rounds: Pair[],
  sideBySide: boolean,
): void {
  console.log(`\n${title}, GET /v1/users/me on PostgreSQL, LOG_LEVEL=warn:`);
  if (on === undefined || off === undefined) {
    console.log("  not measured");
    return;
  }
  for (const m of [off, on]) {
    const errors = m.result.non2xx + m.result.socketErrors;
    const cpu = m.cpuUsPerRequest === undefined ? "" : `, server CPU ${m.cpuUsPerRequest.toFixed(1)} µs/req`;
    console.log(
      `  ${m.label}: ${rps(m.result.requestsPerSec)} req/s, p99 ${ms(m.result.p99Ms)}${cpu}, errors ${errors}${m.note ? ` (${m.note})` : ""}`,
    );
  }
  if (sideBySide && (on.cpuUsPerRequest === undefined || off.cpuUsPerRequest === undefined)) {
    console.log("  not measured (no CPU time read)");
    return;
  }
  // Side by side, the medians' CPU per request; in turns, their requests/s.
  const medianRatio = sideBySide
    ? off.cpuUsPerRequest! / on.cpuUsPerRequest!
    : on.result.requestsPerSec / off.result.requestsPerSec;
  const throughputRatios = rounds.map(
    ([withIt, without]) => withIt.result.requestsPerSec / without.result.requestsPerSec,
  );
  // Within a round the two runs are minutes apart at most (side by side, simultaneous): the median of
  // those ratios leaves out the machine's drift between rounds, which a ratio of the two medians keeps.
  const ratios = sideBySide
    ? rounds.flatMap(([withIt, without]) =>
        withIt.cpuUsPerRequest === undefined || without.cpuUsPerRequest === undefined
          ? []
          : [without.cpuUsPerRequest / withIt.cpuUsPerRequest],
      )
    : throughputRatios;
  const paired = ratios.length >= 3;
  const ratio = paired ? median(ratios) : medianRatio;
  const cost = 1 - ratio;
  if (paired && sideBySide) {
    console.log(
      `  side by side, CPU per request without/with, each round: ${ratios.map((r) => r.toFixed(3)).join(" / ")}`,
    );
    console.log(
      `  (their requests/s with/without, each round: ${throughputRatios.map((r) => r.toFixed(3)).join(" / ")}: the scheduler's share of the core as much as the cost)`,
    );
  } else if (paired) {
    console.log(
      `  with/without, each round: ${ratios.map((r) => r.toFixed(3)).join(" / ")}; ratio of the medians ${medianRatio.toFixed(3)}`,
    );
  }
  // The medians are copies of round measurements: count each run once.
  const errors = (rounds.length > 0 ? rounds.flat() : [on, off]).reduce(
    (sum, m) => sum + m.result.non2xx + m.result.socketErrors,
    0,
  );
  const verdict = errors > 0 ? `INVALID: ${errors} errors` : cost <= target ? "met" : "MISSED";
  const how = !paired
    ? ""
    : sideBySide
      ? " (median of the rounds' CPU ratios)"
      : " (median of the rounds' ratios)";
  console.log(
    `  with/without${how}: ${ratio.toFixed(3)}; cost ${percent(cost)} of throughput (target ≤ ${percent(target)}): ${verdict}`,
  );
  // On a shared machine throughput swings with other processes; CPU per request is steadier.
  if (on.cpuUsPerRequest !== undefined && off.cpuUsPerRequest !== undefined) {
    const extra = on.cpuUsPerRequest / off.cpuUsPerRequest - 1;
    console.log(`  server CPU per request with/without: ${percent(extra)} more with ${feature}`);
  }
}
