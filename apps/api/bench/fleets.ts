/**
 * Figures for issue #3 on PostgreSQL: `POST …/messages` with 32 connections spread over 50 fleets, and
 * the fleet events list at a depth of 1,000,000 rows against its first page.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fleetEvents, openDatabase, sql } from "@fleet/db";
import { eventsBinding } from "../src/services/fleet-events/event-page.ts";
import { encodeCursor } from "../src/services/shared/keyset.ts";
import { insertBenchFleets, type SeededDatabase } from "./databases.ts";
import { openLiveTail } from "./live-tail.ts";
import { apiServerSpec, pinApart, startServer, stopProcess, waitUntilReady } from "./processes.ts";
import { printProfileIn } from "./profile.ts";
import { runWrk, type WrkResult } from "./wrk.ts";

const FLEETS = 50;
const DEPTH = 1_000_000;

export interface FleetFigures {
  messages: WrkResult;
  /** The same load with a live tail open, and the event_received frames that tail read. */
  steering: WrkResult & { framesRead: number };
  /** The message runs had the API on CPU 0 and wrk on CPU 1 (BENCH_FLEETS_PIN=1). */
  pinned: boolean;
  /** The same load, each request with its own Idempotency-Key, as the console sends. */
  keyedMessages: WrkResult;
  firstPage: WrkResult;
  deepPage: WrkResult;
  seedSeconds: number;
}

interface Seeded {
  workspaceId: string;
  fleetIds: string[];
  deepFleetId: string;
  deepCursor: string;
}

/** 50 active fleets for the message load, and one fleet holding a million events for the list. */
async function seedFleets(url: string): Promise<Seeded> {
  // A million rows with their indexes take longer than the service's 5 s statement timeout on a busy machine.
  const database = await openDatabase(url, { max: 2, statementTimeoutMs: 600_000 });
  try {
    const db = database.db;
    const { workspaceId, fleetIds: ids } = await insertBenchFleets(database, "bench", FLEETS + 1);
    const now = Date.now();
    const deepFleetId = ids[FLEETS]!;
    // A million events, one a millisecond, written by the database itself.
    await database.query(
      `insert into fleet_events (id, workspace_id, fleet_id, actor, event_type, request_json, status, created_at, updated_at)
       select gen_random_uuid(), $1, $2, 'user:bench', 'chat', '{"message":"bench"}', 'processed', $3::bigint + n, $3::bigint + n
       from generate_series(1, ${DEPTH}) as n`,
      [workspaceId, deepFleetId, now - DEPTH - 10_000],
    );
    await database.query("analyze fleet_events");
    // The cursor of the page before the oldest: the keyset of the 50th-oldest row.
    const [row] = await db
      .select({ id: fleetEvents.id, createdAt: fleetEvents.createdAt })
      .from(fleetEvents)
      .where(sql`${fleetEvents.fleetId} = ${deepFleetId}`)
      .orderBy(fleetEvents.createdAt, fleetEvents.id)
      .offset(50)
      .limit(1);
    const deepCursor = encodeCursor({
      bind: eventsBinding(`fleet:${deepFleetId}`, {}),
      value: row!.createdAt,
      id: row!.id,
    });
    return { workspaceId, fleetIds: ids.slice(0, FLEETS), deepFleetId, deepCursor };
  } finally {
    await database.close();
  }
}

function messageScript(dir: string, paths: string[], token: string, keyed = false): string {
  const file = join(dir, keyed ? "keyed-messages.lua" : "messages.lua");
  const list = paths.map((path) => `"${path}"`).join(",\n  ");
  writeFileSync(
    file,
    `local paths = {\n  ${list}\n}
local i = 0
local headers = { ["Authorization"] = "Bearer ${token}", ["Content-Type"] = "application/json" }
local body = '{"message":"Summarise the open incidents"}'
local n = 0
local prefix = tostring(math.random(1, 2^30))
request = function()
  i = i % #paths + 1
  ${
    keyed
      ? `n = n + 1
  headers["Idempotency-Key"] = "bench-" .. prefix .. "-" .. n`
      : ""
  }
  return wrk.format("POST", paths[i], headers, body)
end
`,
  );
  return file;
}

export async function benchFleets(
  db: SeededDatabase,
  options: {
    seconds: number;
    warmupSeconds: number;
    work: string;
    logDir: string;
    apiDir: string;
    /** Profile the API during the message load and print where its time went. */
    profile: boolean;
    /** The message runs with the API on CPU 0 and wrk on CPU 1. */
    pinned: boolean;
  },
  progress: (message: string) => void,
): Promise<FleetFigures> {
  progress(`seeding ${FLEETS} fleets and ${DEPTH.toLocaleString("en-US")} events on PostgreSQL`);
  const started = performance.now();
  const seeded = await seedFleets(db.url);
  const seedSeconds = (performance.now() - started) / 1000;
  const profileDir = join(options.work, "fleets-profile");
  mkdirSync(profileDir, { recursive: true });
  const server = await startServer(
    apiServerSpec("API fleets", {
      ...options,
      // The limiter on, as deployed, with quotas no run reaches: a workspace's default quota (3,000 a
      // minute) would answer most of this load 429 and the figure would count refusals.
      env: {
        DATABASE_URL: db.url,
        LOG_LEVEL: "info",
        FLEET_RATE_LIMIT_WORKSPACE: "1000000000",
        FLEET_RATE_LIMIT_CREDENTIAL: "1000000000",
      },
      ...(options.profile ? { profileDir } : {}),
    }),
  );
  try {
    await waitUntilReady(server, "/healthz");
    // BENCH_FLEETS_PIN=1: the API on CPU 0 and wrk on CPU 1 for the message runs (PostgreSQL and the live
    // tail's reader float), as the cost suites run; off by default, so the figures compare with earlier ones.
    const wrkCpus = options.pinned ? pinApart(server.child.pid) : {};
    const pinned = wrkCpus.cpus !== undefined;
    const auth = { authorization: `Bearer ${db.apiKey}` };
    const base = `/v1/workspaces/${seeded.workspaceId}/fleets`;
    const paths = seeded.fleetIds.map((id) => `${base}/${id}/messages`);
    const probe = await fetch(`${server.baseUrl}${paths[0]}`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({ message: "probe" }),
    });
    if (probe.status !== 202) throw new Error(`messages answered ${probe.status}: ${await probe.text()}`);
    const script = messageScript(options.work, paths, db.apiKey);
    progress(`POST messages: warm-up ${options.warmupSeconds}s, then ${options.seconds}s, 32 connections`);
    await runWrk(server.baseUrl, { seconds: options.warmupSeconds, script, ...wrkCpus });
    const { cpuMs: _m, ...messages } = await runWrk(server.baseUrl, {
      seconds: options.seconds,
      script,
      ...wrkCpus,
    });
    const keyedScript = messageScript(options.work, paths, db.apiKey, true);
    progress(`POST messages with an Idempotency-Key each: ${options.seconds}s, 32 connections`);
    await runWrk(server.baseUrl, { seconds: options.warmupSeconds, script: keyedScript, ...wrkCpus });
    const { cpuMs: _k, ...keyedMessages } = await runWrk(server.baseUrl, {
      seconds: options.seconds,
      script: keyedScript,
      ...wrkCpus,
    });

    // Steering (issue 15 §7): the same load with a live tail of the workspace open, which must read
    // every message's event_received frame.
    progress(`POST messages with a live tail open: ${options.seconds}s, 32 connections`);
    const tail = await openLiveTail(
      `${server.baseUrl}/v1/workspaces/${seeded.workspaceId}/events/stream`,
      auth,
    );
    let steering: FleetFigures["steering"];
    try {
      const { cpuMs: _s, ...loaded } = await runWrk(server.baseUrl, {
        seconds: options.seconds,
        script,
        ...wrkCpus,
      });
      // Frames still on their way when wrk stops: give them a moment.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      steering = { ...loaded, framesRead: tail.counts.get("event_received") ?? 0 };
    } finally {
      tail.close();
    }

    const list = `${server.baseUrl}${base}/${seeded.deepFleetId}/events?limit=50`;
    const deep = `${list}&starting_after=${seeded.deepCursor}`;
    const check = await fetch(deep, { headers: auth });
    const page = (await check.json()) as { items: unknown[] };
    if (check.status !== 200 || page.items.length !== 50) {
      throw new Error(`the deep page answered ${check.status} with ${page.items?.length} items`);
    }
    progress("events list: first page, then the page at depth 1,000,000 (4 connections each)");
    await runWrk(list, { seconds: options.warmupSeconds, headers: auth, connections: 4 });
    const { cpuMs: _f, ...firstPage } = await runWrk(list, {
      seconds: options.seconds,
      headers: auth,
      connections: 4,
    });
    await runWrk(deep, { seconds: options.warmupSeconds, headers: auth, connections: 4 });
    const { cpuMs: _d, ...deepPage } = await runWrk(deep, {
      seconds: options.seconds,
      headers: auth,
      connections: 4,
    });
    await stopProcess(server.child);
    if (options.profile) printProfileIn(profileDir, "CPU profile of the API during the fleets runs:", 25);
    return { messages, steering, keyedMessages, firstPage, deepPage, seedSeconds, pinned };
  } finally {
    await stopProcess(server.child);
  }
}

const fmt = (value: number) => Math.round(value).toLocaleString("en-US");
/** Answers per second that were 2xx: a refusal is not an accepted message. */
const acceptedPerSec = (run: WrkResult) =>
  run.requests === 0 ? 0 : (run.requestsPerSec * (run.requests - run.non2xx)) / run.requests;
const mark = (ok: boolean) => (ok ? "met" : "MISSED");

export function printFleetFigures(figures: FleetFigures): void {
  const { messages, steering, keyedMessages, firstPage, deepPage } = figures;
  const ratio = deepPage.p50Ms / firstPage.p50Ms;
  console.log(
    `\nFleets (issue #3), PostgreSQL${figures.pinned ? " (message runs: the API on CPU 0, wrk on CPU 1)" : ""}`,
  );
  console.log(
    `  POST …/messages, 32 connections over ${FLEETS} fleets: ${fmt(acceptedPerSec(messages))} accepted/s, p50 ${messages.p50Ms.toFixed(2)} ms, p99 ${messages.p99Ms.toFixed(2)} ms, non-2xx ${messages.non2xx}` +
      `  [target ≥ 5,000/s: ${mark(acceptedPerSec(messages) >= 5000)}; p99 ≤ 15 ms: ${mark(messages.p99Ms <= 15)}]`,
  );
  const accepted = steering.requests - steering.non2xx;
  console.log(
    `  Steering: POST …/messages with a live tail open: ${fmt(acceptedPerSec(steering))} accepted/s, p50 ${steering.p50Ms.toFixed(2)} ms, p99 ${steering.p99Ms.toFixed(2)} ms, non-2xx ${steering.non2xx}; the tail read ${fmt(steering.framesRead)} event_received frames of ${fmt(accepted)} accepted` +
      `  [target ≥ 5,000/s: ${mark(acceptedPerSec(steering) >= 5000)}; p99 ≤ 15 ms: ${mark(steering.p99Ms <= 15)}]`,
  );
  console.log(
    `  same, with an Idempotency-Key each: ${fmt(acceptedPerSec(keyedMessages))} accepted/s, p50 ${keyedMessages.p50Ms.toFixed(2)} ms, p99 ${keyedMessages.p99Ms.toFixed(2)} ms, non-2xx ${keyedMessages.non2xx} (${(acceptedPerSec(keyedMessages) / acceptedPerSec(messages)).toFixed(2)}× the unkeyed rate)`,
  );
  console.log(
    `  GET …/events first page: ${fmt(firstPage.requestsPerSec)} req/s, p50 ${firstPage.p50Ms.toFixed(2)} ms, p99 ${firstPage.p99Ms.toFixed(2)} ms`,
  );
  console.log(
    `  GET …/events at depth ${DEPTH.toLocaleString("en-US")}: ${fmt(deepPage.requestsPerSec)} req/s, p50 ${deepPage.p50Ms.toFixed(2)} ms, p99 ${deepPage.p99Ms.toFixed(2)} ms` +
      `  (deep ÷ first p50 ${ratio.toFixed(2)}×) [target ≤ 1.5×: ${mark(ratio <= 1.5)}]`,
  );
  console.log(`  (seeding took ${figures.seedSeconds.toFixed(1)} s)`);
}
