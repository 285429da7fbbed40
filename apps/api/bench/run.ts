/**
 * Benchmark for issue #2: what `GET /v1/users/me` costs against a bare node:http hello (the ceiling) and
 * a hand-written Fastify route (the same work without tRPC and the contracts layer), on PostgreSQL and on
 * embedded PGlite, plus API startup time. Prints figures beside their targets; never fails on a miss.
 *
 * Env: BENCH_SECONDS (load per run, default 10), BENCH_WARMUP_SECONDS (default 3),
 * BENCH_PG_ADMIN_URL (default postgres://postgres@127.0.0.1:5432/postgres),
 * BENCH_PROFILE=1 (also profile the API under load with --cpu-prof and summarise self time).
 */
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Cleanup } from "./cleanup.ts";
import { createPostgresDatabase, type SeededDatabase, seedTenant } from "./databases.ts";
import { type ServerSpec, startServer, stopProcess, waitUntilReady } from "./processes.ts";
import { formatSummary, summariseProfile } from "./profile.ts";
import {
  formatMeasurements,
  formatTargets,
  type Measurement,
  ms,
  percent,
  rps,
  seconds,
  type Target,
} from "./report.ts";
import { runWrk } from "./wrk.ts";

const apiDir = fileURLToPath(new URL("..", import.meta.url));
const STARTUP_RUNS = 3;

interface Settings {
  seconds: number;
  warmupSeconds: number;
  pgAdminUrl: string;
  profile: boolean;
}

function positiveInt(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive whole number`);
  return value;
}

function readSettings(): Settings {
  const seconds = positiveInt("BENCH_SECONDS", 10);
  return {
    seconds,
    warmupSeconds: positiveInt("BENCH_WARMUP_SECONDS", Math.min(3, seconds)),
    pgAdminUrl: process.env.BENCH_PG_ADMIN_URL ?? "postgres://postgres@127.0.0.1:5432/postgres",
    profile: ["1", "true", "yes"].includes(process.env.BENCH_PROFILE ?? ""),
  };
}

const progress = (message: string) => console.error(`· ${message}`);

/** One server under load: how to start it and which request to send. */
interface LoadRun {
  label: string;
  server: Omit<ServerSpec, "logDir">;
  path: string;
  headers: Record<string, string>;
}

function apiRun(label: string, db: SeededDatabase, logLevel: "info" | "warn", extraNodeArgs: string[] = []) {
  return {
    label,
    server: {
      name: label,
      nodeArgs: [...extraNodeArgs, "--import", "tsx", "src/main.ts"],
      cwd: apiDir,
      env: { DATABASE_URL: db.url, LOG_LEVEL: logLevel },
    },
    path: "/v1/users/me",
    headers: { authorization: `Bearer ${db.apiKey}` },
  } satisfies LoadRun;
}

function fastifyRun(label: string, db: SeededDatabase): LoadRun {
  return {
    label,
    server: {
      name: label,
      nodeArgs: ["--import", "tsx", "bench/servers/fastify-me.ts"],
      cwd: apiDir,
      env: { DATABASE_URL: db.url },
    },
    path: "/me",
    headers: { authorization: `Bearer ${db.apiKey}` },
  };
}

const helloRun: LoadRun = {
  label: "bare node:http hello",
  server: { name: "hello", nodeArgs: ["--import", "tsx", "bench/servers/hello.ts"], cwd: apiDir, env: {} },
  path: "/",
  headers: {},
};

/** What a server wrote to stdout during its run; for the API at info that is the access log. */
function stdoutNote(path: string): string | undefined {
  const bytes = statSync(path).size;
  if (bytes === 0) return undefined;
  const lines = readFileSync(path, "utf8").split("\n").length - 1;
  return `stdout ${lines.toLocaleString("en-US")} lines, ${(bytes / 1e6).toFixed(1)} MB`;
}

/**
 * Starts the server, checks the request succeeds (a bench of 401s would look fast), warms it up, loads
 * it, and stops it before the next run: one server at a time, since wrk and the server share two cores.
 */
async function measure(
  run: LoadRun,
  settings: Settings,
  logDir: string,
): Promise<Measurement & { body: string }> {
  progress(`${run.label}: starting`);
  const server = await startServer({ ...run.server, logDir });
  try {
    await waitUntilReady(server, run.path === "/" ? "/" : "/healthz");
    const url = `${server.baseUrl}${run.path}`;
    const response = await fetch(url, { headers: run.headers });
    const body = await response.text();
    if (response.status !== 200)
      throw new Error(`${run.label}: ${run.path} answered ${response.status}: ${body}`);
    progress(`${run.label}: warm-up ${settings.warmupSeconds}s, then ${settings.seconds}s of load`);
    await runWrk(url, { seconds: settings.warmupSeconds, headers: run.headers });
    const result = await runWrk(url, { seconds: settings.seconds, headers: run.headers });
    await stopProcess(server.child);
    return { label: run.label, result, body, note: stdoutNote(server.stdoutPath) };
  } finally {
    await stopProcess(server.child);
  }
}

/** Time from spawning the API on an already-migrated PGlite dir until /healthz answers 200. */
async function measureStartup(db: SeededDatabase, logDir: string): Promise<number[]> {
  const times: number[] = [];
  for (let attempt = 1; attempt <= STARTUP_RUNS; attempt++) {
    progress(`startup ${attempt}/${STARTUP_RUNS}`);
    const server = await startServer({ ...apiRun(`startup ${attempt}`, db, "info").server, logDir });
    try {
      await waitUntilReady(server, "/healthz", { timeoutMs: 30_000, pollMs: 5 });
      times.push(performance.now() - server.spawnedAt);
    } finally {
      // Waits for exit: the next start needs the data dir's lock released.
      await stopProcess(server.child);
    }
  }
  return times;
}

/** Runs the API under load with --cpu-prof and returns where the profile was kept. */
async function profileApi(db: SeededDatabase, settings: Settings, work: string): Promise<string> {
  const profileDir = join(work, "profile");
  mkdirSync(profileDir);
  const run = apiRun("API /v1/users/me profiled", db, "info", ["--cpu-prof", `--cpu-prof-dir=${profileDir}`]);
  // measure() stops the server with SIGTERM, so main.ts exits normally and V8 writes the profile.
  await measure(run, settings, work);
  const file = readdirSync(profileDir).find((name) => name.endsWith(".cpuprofile"));
  if (file === undefined) throw new Error("the API wrote no .cpuprofile");
  const kept = join(tmpdir(), `fleet-bench-api-${process.pid}.cpuprofile`);
  copyFileSync(join(profileDir, file), kept);
  return kept;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Makes the PostgreSQL database, or explains why not: the PGlite half of the bench still runs. */
async function preparePostgres(settings: Settings, cleanup: Cleanup): Promise<SeededDatabase | string> {
  const name = `fleet_bench_${process.pid}`;
  try {
    const created = await createPostgresDatabase(settings.pgAdminUrl, name);
    cleanup.defer(`drop database ${name}`, created.drop);
    return await seedTenant(created.url);
  } catch (error) {
    return `PostgreSQL unavailable at ${settings.pgAdminUrl}: ${error instanceof Error ? error.message : error}`;
  }
}

async function bench(settings: Settings, cleanup: Cleanup): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), "fleet-bench-"));
  cleanup.defer(`remove ${work}`, () => rmSync(work, { recursive: true, force: true }));
  const logDir = join(work, "logs");
  mkdirSync(logDir);

  progress("preparing PostgreSQL database and PGlite data dir (migrate + bootstrap a tenant)");
  const postgres = await preparePostgres(settings, cleanup);
  const pglite = await seedTenant(`pglite://${join(work, "pglite")}`);
  const pg = typeof postgres === "string" ? null : postgres;
  if (pg === null) console.error(postgres);

  const runs = {
    hello: helloRun,
    fastifyPg: pg && fastifyRun("Fastify /me (PostgreSQL)", pg),
    apiPgInfo: pg && apiRun("API /v1/users/me (PostgreSQL, LOG_LEVEL=info)", pg, "info"),
    apiPgWarn: pg && apiRun("API /v1/users/me (PostgreSQL, LOG_LEVEL=warn)", pg, "warn"),
    fastifyLite: fastifyRun("Fastify /me (PGlite)", pglite),
    apiLite: apiRun("API /v1/users/me (PGlite, LOG_LEVEL=info)", pglite, "info"),
  };
  const results: Partial<Record<keyof typeof runs, Measurement & { body: string }>> = {};
  for (const [key, run] of Object.entries(runs) as [keyof typeof runs, LoadRun | null][]) {
    if (run !== null) results[key] = await measure(run, settings, logDir);
  }
  const startup = await measureStartup(pglite, logDir);
  const profilePath = settings.profile ? await profileApi(pg ?? pglite, settings, work) : undefined;

  printReport(settings, results, startup, typeof postgres === "string" ? postgres : undefined);
  if (profilePath !== undefined) {
    console.log(`\nCPU profile of the API under load (LOG_LEVEL=info), kept at ${profilePath}:`);
    console.log(formatSummary(summariseProfile(profilePath)));
  }
}

type Results = Partial<Record<string, Measurement & { body: string }>>;

function ratio(a: Measurement | undefined, b: Measurement | undefined): number | undefined {
  return a && b ? a.result.requestsPerSec / b.result.requestsPerSec : undefined;
}

function targets(results: Results, startup: number[]): Target[] {
  const { hello, fastifyPg, apiPgInfo, apiPgWarn, apiLite } = results;
  const atLeast = (goal: number) => (value: number) => value >= goal;
  const atMost = (goal: number) => (value: number) => value <= goal;
  return [
    ...[apiPgInfo, apiPgWarn].flatMap((api, index) => {
      const level = index === 0 ? "info" : "warn";
      return [
        {
          label: `/v1/users/me (PG, ${level}) ÷ bare hello`,
          value: ratio(api, hello),
          format: percent,
          goal: "≥ 40%",
          met: atLeast(0.4),
        },
        {
          label: `/v1/users/me (PG, ${level}) p99`,
          value: api?.result.p99Ms,
          format: ms,
          goal: "≤ 5 ms",
          met: atMost(5),
        },
        {
          label: `/v1/users/me (PG, ${level}) ÷ Fastify /me (PG)`,
          value: ratio(api, fastifyPg),
          format: percent,
          goal: "≥ 80%",
          met: atLeast(0.8),
        },
      ];
    }),
    {
      label: "/v1/users/me (PGlite, info) requests/s",
      value: apiLite?.result.requestsPerSec,
      format: rps,
      goal: "≥ 2,500",
      met: atLeast(2500),
    },
    {
      label: `startup on existing PGlite dir, median of ${startup.length}`,
      value: startup.length > 0 ? median(startup) : undefined,
      format: seconds,
      goal: "≤ 3 s",
      met: atMost(3000),
    },
    {
      label: `startup on existing PGlite dir, best of ${startup.length}`,
      value: startup.length > 0 ? Math.min(...startup) : undefined,
      format: seconds,
      goal: "≤ 3 s",
      met: atMost(3000),
    },
  ];
}

function printReport(settings: Settings, results: Results, startup: number[], skipped?: string): void {
  const { hello, fastifyPg, apiPgInfo, apiPgWarn, fastifyLite, apiLite } = results;
  console.log(
    `\nFleet Control Plane API bench — node ${process.version}, ${cpus().length} CPUs, ` +
      `wrk -t1 -c32 -d${settings.seconds}s --latency (after a ${settings.warmupSeconds}s warm-up)\n`,
  );
  const measured = [hello, fastifyPg, apiPgInfo, apiPgWarn, fastifyLite, apiLite].filter(
    (entry) => entry !== undefined,
  );
  console.log(formatMeasurements(measured));
  if (skipped) console.log(`\nSkipped the PostgreSQL runs — ${skipped}`);

  console.log("\nTargets (issue #2)\n");
  console.log(formatTargets(targets(results, startup)));

  console.log("\nOther figures");
  const accessLog = ratio(apiPgInfo, apiPgWarn);
  if (accessLog !== undefined)
    console.log(`  access log at info costs ${percent(1 - accessLog)} of requests/s`);
  const liteRatio = ratio(apiLite, fastifyLite);
  if (liteRatio !== undefined)
    console.log(`  /v1/users/me (PGlite) ÷ Fastify /me (PGlite): ${percent(liteRatio)}`);
  const fastifyRatio = ratio(fastifyPg, hello);
  if (fastifyRatio !== undefined) console.log(`  Fastify /me (PG) ÷ bare hello: ${percent(fastifyRatio)}`);
  if (startup.length > 0) console.log(`  startup runs: ${startup.map(seconds).join(", ")}`);
  if (fastifyPg && apiPgInfo) {
    const same = JSON.stringify(JSON.parse(fastifyPg.body)) === JSON.stringify(JSON.parse(apiPgInfo.body));
    console.log(`  Fastify /me and /v1/users/me answer the same JSON: ${same ? "yes" : "NO"}`);
  }
}

async function main(): Promise<void> {
  const settings = readSettings();
  const cleanup = new Cleanup();
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      console.error(`\n${signal}: stopping servers and removing temp resources`);
      void cleanup.run().finally(() => process.exit(130));
    });
  }
  try {
    await bench(settings, cleanup);
  } catch (error) {
    console.error("bench failed:", error instanceof Error ? error.message : error);
    process.exitCode = 1;
  } finally {
    await cleanup.run();
  }
}

await main();
