/**
 * Figures for issue 15 §7 (live-tail streams), on PostgreSQL with two API instances A and B:
 * - publish on B → receive on A: one stream on A, messages posted through B one at a time, each timed from
 *   the frame's `at` (B's clock, the same machine's) to its arrival at the subscriber;
 * - 10,000 concurrent subscribers on A, one frame to all: each message posted through A reaches every
 *   stream, timed the same way; p99 over every delivery of every round;
 * - memory per subscriber: A's resident set before and after the streams opened, ÷ streams.
 * The subscribers run in a forked process of their own (stream-clients.ts), with raw sockets.
 * Prints figures beside their targets; never fails on a miss.
 */
import { type ChildProcess, fork } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { openDatabase } from "@fleet/db";
import { insertBenchFleets, type SeededDatabase } from "./databases.ts";
import { BenchConnection } from "./http-client.ts";
import { apiServerSpec, type Server, startServer, stopProcess, waitUntilReady } from "./processes.ts";
import { printProfileIn } from "./profile.ts";

export interface StreamFigures {
  subscribers: number;
  opened: number;
  rounds: number;
  fanOut: { deliveries: number; missing: number; p50: number; p99: number; max: number };
  bytesPerSubscriber: number | null;
  crossInstance: { samples: number; p50: number; p99: number; max: number };
}

interface Options {
  apiDir: string;
  logDir: string;
  subscribers: number;
  rounds: number;
  crossSamples: number;
  /** Profile instance A (--cpu-prof) and print where its time went. */
  profile: boolean;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

function rssBytes(pid: number | undefined): number | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const kib = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
    return kib === undefined ? null : Number(kib) * 1024;
  } catch {
    return null;
  }
}

async function startApi(
  name: string,
  db: SeededDatabase,
  options: Options,
  profileDir?: string,
): Promise<Server> {
  const server = await startServer(
    apiServerSpec(name, {
      apiDir: options.apiDir,
      logDir: options.logDir,
      ...(profileDir === undefined ? {} : { profileDir }),
      env: {
        DATABASE_URL: db.url,
        LOG_LEVEL: "warn",
        FLEET_RATE_LIMITS: "false",
        FLEET_MAX_IN_FLIGHT: "0",
        FLEET_MAX_STREAMS: String(options.subscribers + 100),
      },
    }),
  );
  await waitUntilReady(server, "/healthz", { timeoutMs: 120_000 });
  return server;
}

/** The forked subscriber process, and a request/answer over its IPC channel. */
class Clients {
  private constructor(private readonly child: ChildProcess) {}

  static async start(): Promise<Clients> {
    const child = fork(fileURLToPath(new URL("./stream-clients.ts", import.meta.url)), [], {
      execArgv: ["--import", "tsx"],
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    await new Promise<void>((resolve) => child.once("message", () => resolve()));
    return new Clients(child);
  }

  ask<T>(message: Record<string, unknown>): Promise<T> {
    return new Promise((resolve) => {
      this.child.once("message", (answer) => resolve(answer as T));
      this.child.send(message);
    });
  }

  async stop(): Promise<void> {
    this.child.send({ type: "close" });
    await stopProcess(this.child);
  }
}

async function post(connection: BenchConnection, path: string, token: string, text: string): Promise<string> {
  const answer = await connection.post(path, token, { message: text });
  if (answer.status !== 202)
    throw new Error(`message answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return (answer.body as { event_id: string }).event_id;
}

export async function benchStreams(
  db: SeededDatabase,
  options: Options,
  progress: (line: string) => void,
): Promise<StreamFigures> {
  const seeding = await openDatabase(db.url, { max: 2 });
  let place: { workspaceId: string; fleetIds: string[] };
  try {
    place = await insertBenchFleets(seeding, "stream-bench", 1);
  } finally {
    await seeding.close();
  }
  const messages = `/v1/workspaces/${place.workspaceId}/fleets/${place.fleetIds[0]}/messages`;
  const stream = `/v1/workspaces/${place.workspaceId}/events/stream?kinds=event_received`;
  const profileDir = options.profile ? join(options.logDir, "streams-profile") : undefined;
  if (profileDir !== undefined) mkdirSync(profileDir, { recursive: true });
  const a = await startApi("streams A", db, options, profileDir);
  const b = await startApi("streams B", db, options);
  const toA = BenchConnection.to(a.baseUrl);
  const toB = BenchConnection.to(b.baseUrl);
  let clients: Clients | null = null;
  try {
    // Publish on B → receive on A, one subscriber.
    progress("streams: publish on B, receive on A");
    const single = await Clients.start();
    await single.ask({ type: "open", base: a.baseUrl, path: stream, token: db.apiKey, count: 1 });
    const cross: number[] = [];
    for (let i = 0; i < options.crossSamples + 20; i++) {
      const eventId = await post(toB, messages, db.apiKey, `cross ${i}`);
      const { latencies } = await single.ask<{ latencies: number[] }>({ type: "collect", eventId });
      if (i >= 20) cross.push(...latencies); // the first ones warm both instances up
    }
    await single.stop();
    cross.sort((x, y) => x - y);

    // 10,000 subscribers on A, one frame to all.
    progress(`streams: opening ${options.subscribers} subscribers on A`);
    await post(toA, messages, db.apiKey, "warm-up");
    const before = rssBytes(a.child.pid);
    clients = await Clients.start();
    const { open: opened } = await clients.ask<{ open: number }>({
      type: "open",
      base: a.baseUrl,
      path: stream,
      token: db.apiKey,
      count: options.subscribers,
    });
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const after = rssBytes(a.child.pid);
    progress(`streams: ${opened} open; ${options.rounds} frames to all`);
    const deliveries: number[] = [];
    let missing = 0;
    for (let round = 0; round < options.rounds; round++) {
      const eventId = await post(toA, messages, db.apiKey, `fan-out ${round}`);
      const { latencies } = await clients.ask<{ latencies: number[] }>({ type: "collect", eventId });
      missing += opened - latencies.length;
      deliveries.push(...latencies);
    }
    deliveries.sort((x, y) => x - y);
    return {
      subscribers: options.subscribers,
      opened,
      rounds: options.rounds,
      fanOut: {
        deliveries: deliveries.length,
        missing,
        p50: percentile(deliveries, 50),
        p99: percentile(deliveries, 99),
        max: deliveries[deliveries.length - 1] ?? Number.NaN,
      },
      bytesPerSubscriber:
        before === null || after === null || opened === 0 ? null : Math.round((after - before) / opened),
      crossInstance: {
        samples: cross.length,
        p50: percentile(cross, 50),
        p99: percentile(cross, 99),
        max: cross[cross.length - 1] ?? Number.NaN,
      },
    };
  } finally {
    await clients?.stop();
    toA.close();
    toB.close();
    await stopProcess(a.child);
    await stopProcess(b.child);
    if (profileDir !== undefined) printProfileIn(profileDir, "CPU profile of instance A (streams):");
  }
}

export function printStreamFigures(figures: StreamFigures): void {
  const { fanOut, crossInstance } = figures;
  const verdict = (ok: boolean) => (ok ? "met" : "MISSED");
  console.log("\nLive-tail streams (issue 15 §7), PostgreSQL, two instances");
  console.log(
    `  ${figures.opened}/${figures.subscribers} subscribers on A, ${figures.rounds} frames to all: ` +
      `p50 ${fanOut.p50} ms, p99 ${fanOut.p99} ms (goal ≤ 250 ms: ${verdict(fanOut.p99 <= 250)}), ` +
      `max ${fanOut.max} ms; ${fanOut.deliveries} deliveries, ${fanOut.missing} missing`,
  );
  if (figures.bytesPerSubscriber !== null)
    console.log(
      `  memory per subscriber (A's RSS delta ÷ streams): ${(figures.bytesPerSubscriber / 1024).toFixed(1)} KiB ` +
        `(goal ≤ 25 KiB: ${verdict(figures.bytesPerSubscriber <= 25 * 1024)})`,
    );
  console.log(
    `  publish on B → receive on A: p50 ${crossInstance.p50} ms, p99 ${crossInstance.p99} ms ` +
      `(goal ≤ 50 ms: ${verdict(crossInstance.p99 <= 50)}), max ${crossInstance.max} ms, ${crossInstance.samples} samples`,
  );
}
