import { randomBytes } from "node:crypto";
import { mkdirSync } from "node:fs";
import { createServer, type Server as HttpServer } from "node:http";
import { loadavg } from "node:os";
import { join } from "node:path";
import { openDatabase } from "@fleet/db";
import { modelVendorEnv, startFakeModelVendor } from "@fleet/testing/fake-model-vendor";
import {
  type ConcurrentRound,
  callOf,
  concurrentRound,
  type Frame,
  Frames,
  MAX_RUN_MS,
  MAX_STEPS,
  type RunKind,
  responder,
  sleep,
} from "./agent-runs.ts";
import { BENCH_MODEL, insertBenchModel, insertBenchRunner, type SeededDatabase } from "./databases.ts";
import { send } from "./gateway.ts";
import { type Latencies, latencies } from "./gateway-load.ts";
import { openFrameTail } from "./live-tail.ts";
import { apiServerSpec, othersMeter, startServer, stopProcess, waitUntilReady } from "./processes.ts";
import { printProfileIn } from "./profile.ts";

/**
 * Issue 32 §6: the `agent` executor end to end. The real API (scripts/start.mjs), the fake model vendor
 * in the bench process set as the tenant's provider through `PUT /v1/tenants/me/provider` (as a tenant's
 * admin does), and the reference runner (`apps/runner/bin/fleet-runner.mjs`, executor `agent`) as a
 * process of its own, leasing as a host does. The bench holds one live tail of the workspace and a small
 * HTTP service the fleets' `http_request` calls. Three figures:
 * - **message → first chunk frame**: `POST …/messages` sent to the first `chunk` frame of its event read
 *   by the tail; the runner is waiting (its long-polling acquire is parked), the vendor answers at once.
 * - **gate decided → the tool runs**: a gated `http_request` call's gate is open and its runner waits on
 *   it (long poll); from `POST …/approvals/{id}/approve` sent to the service receiving the call.
 * - **concurrent runs**: `concurrent` messages to as many fleets at once, each run a tool call then a
 *   streamed answer; every frame checked against what each run must send, each run's steps and time
 *   against its bounds, and the runner's CPU time per run.
 * Prints figures; asserts no times.
 */
export interface AgentFigures {
  database: string;
  firstChunk: Latencies;
  /** The same samples' way to the vendor: message sent → the model call arrived (the rest is the answer's). */
  toVendor: Latencies;
  gate: Latencies;
  approveAnswered: Latencies;
  concurrent: ConcurrentRound[];
  workerCount: number;
  maxSteps: number;
  maxRunMs: number;
  others: { firstChunk?: number; gate?: number };
  load: number[];
}

/** The spec clamps a runner's worker_count into 1–64: one runner process holds at most 64 leases. */
const WORKER_CEILING = 64;
/** Samples timed before the measured ones: the first runs warm the runner's and the API's code. */
const WARMUP = 5;

/** The service the fleets' http_request reaches: when each `/<kind>/<n>` arrived. */
async function startService(): Promise<{ server: HttpServer; port: number; seen: Map<string, number> }> {
  const seen = new Map<string, number>();
  const server = createServer((request, response) => {
    seen.set(request.url ?? "", performance.now());
    response.writeHead(200, { "content-type": "application/json" });
    response.end('{"ok":true}');
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  return { server, port: typeof address === "object" && address ? address.port : 0, seen };
}

function definition(name: string, gated: boolean): string {
  return [
    "---",
    `name: ${name}`,
    "description: Calls the bench's service once, then answers.",
    "agent:",
    `  max_steps: ${MAX_STEPS}`,
    "requires:",
    "  tools:",
    gated ? "    - name: http_request\n      approval: required" : "    - http_request",
    "  network_hosts:",
    "    - 127.0.0.1",
    "---",
    "Call the service the message names, then say what it answered.",
  ].join("\n");
}

export async function benchAgent(
  db: SeededDatabase,
  database: string,
  options: {
    apiDir: string;
    runnerDir: string;
    logDir: string;
    samples: number;
    gateSamples: number;
    concurrent: number;
    rounds: number;
    profile: boolean;
  },
  progress: (message: string) => void,
): Promise<AgentFigures> {
  const workerCount = Math.min(WORKER_CEILING, options.concurrent);
  const store = await openDatabase(db.url, { max: 1 });
  let runnerToken: string;
  try {
    await insertBenchModel(store);
    // dev_none, as a host without landlock enrols in dev mode (the API runs with FLEET_DEV_MODE=true).
    ({ token: runnerToken } = await insertBenchRunner(store, "agent-bench", {
      sandbox_tier: "dev_none",
      network_policy: "allow_all",
      registry_allowlist: [],
      worker_count: workerCount,
    }));
  } finally {
    await store.close();
  }
  const service = await startService();
  const vendor = await startFakeModelVendor({
    apiKey: `sk-bench-${randomBytes(8).toString("hex")}`,
    respond: responder(service.port),
  });
  const servers: Awaited<ReturnType<typeof startServer>>[] = [];
  const profileDir = options.profile ? join(options.logDir, "agent-profile") : undefined;
  if (profileDir !== undefined) mkdirSync(profileDir, { recursive: true });
  const profile = (name: string) =>
    profileDir === undefined ? [] : ["--cpu-prof", `--cpu-prof-dir=${join(profileDir, name)}`];
  let tail: { close(): void } | undefined;
  try {
    const api = await startServer(
      apiServerSpec(`API agent (${database})`, {
        apiDir: options.apiDir,
        logDir: options.logDir,
        ...(profileDir === undefined ? {} : { profileDir: join(profileDir, "api") }),
        env: {
          DATABASE_URL: db.url,
          LOG_LEVEL: "warn",
          FLEET_DEV_MODE: "true",
          FLEET_MASTER_KEY: randomBytes(32).toString("base64"),
          // The limiter on, as deployed, with quotas no run reaches.
          FLEET_RATE_LIMIT_WORKSPACE: "1000000000",
          FLEET_RATE_LIMIT_CREDENTIAL: "1000000000",
          ...modelVendorEnv(vendor),
        },
      }),
    );
    servers.push(api);
    await waitUntilReady(api, "/readyz", { timeoutMs: 120_000 });
    const base = api.baseUrl;
    const key = db.apiKey;
    await send(
      base,
      "/v1/tenants/me/provider",
      key,
      { provider: "openai", model: BENCH_MODEL, api_key: vendor.apiKey },
      "PUT",
    );
    const workspaces = await send(base, "/v1/tenants/me/workspaces", key, undefined, "GET");
    const ws = `/v1/workspaces/${(workspaces.items as { id: string }[])[0]!.id}`;
    // One person sends the messages and answers the gates: the policy allows it.
    await send(
      base,
      `${ws}/approval-policy`,
      key,
      { rules: [], escalation_webhook_url: null, allow_self_approval: true },
      "PUT",
    );
    const install = async (gated: boolean, count: number) => {
      const name = gated ? "Agent bench gated" : "Agent bench";
      const entry = await send(base, `${ws}/fleet-libraries`, key, { definition: definition(name, gated) });
      const ids: string[] = [];
      for (let i = 0; i < count; i++) {
        const fleet = await send(base, `${ws}/fleets`, key, {
          tenant_library_id: entry.id,
          name: `${name} ${i}`,
        });
        ids.push(String(fleet.fleet_id));
      }
      return ids;
    };
    progress(`agent (${database}): installing ${options.concurrent + 1} fleets`);
    const fleets = await install(false, options.concurrent);
    const [gatedFleet] = await install(true, 1);
    const message = async (fleetId: string, kind: RunKind, n: number) =>
      String(
        (await send(base, `${ws}/fleets/${fleetId}/messages`, key, { message: `[bench ${kind} ${n}]` }))
          .event_id,
      );

    const frames = new Frames();
    tail = await openFrameTail<Frame>(
      `${base}${ws}/events/stream?kinds=chunk,tool_call_started,tool_call_completed,gate_opened,event_complete`,
      key,
      (kind, frame, now) => frames.receive(kind, frame, now),
    );
    const runner = await startServer({
      name: `runner agent (${database})`,
      nodeArgs: [...profile("runner"), "bin/fleet-runner.mjs"],
      cwd: options.runnerDir,
      env: {
        FLEET_API_URL: base,
        FLEET_RUNNER_TOKEN: runnerToken,
        FLEET_RUNNER_EXECUTOR: "agent",
        FLEET_RUNNER_AGENT_MAX_MS: String(MAX_RUN_MS),
        FLEET_RUNNER_LOG_LEVEL: "warn",
        FLEET_RUNNER_SHUTDOWN_GRACE_MS: "2000",
      },
      logDir: options.logDir,
    });
    servers.push(runner);
    const pids = [api.child.pid, runner.child.pid];
    const completed = (eventId: string) =>
      frames.until(`event ${eventId} to complete`, () => frames.of(eventId).complete !== undefined);
    const load: number[] = [loadavg()[0]!];

    progress(`agent (${database}): message → first chunk frame, ${options.samples} samples after ${WARMUP}`);
    const firstChunk: number[] = [];
    const toVendor: number[] = [];
    let others = othersMeter(pids);
    for (let n = 0; n < WARMUP + options.samples; n++) {
      if (n === WARMUP) others = othersMeter(pids);
      const callsBefore = vendor.calls.length;
      const sentWall = Date.now();
      const sent = performance.now();
      const eventId = await message(fleets[0]!, "chunk", n);
      await frames.until(
        `the first chunk of ${eventId}`,
        () => frames.of(eventId).firstChunkAt !== undefined,
      );
      await completed(eventId);
      if (n < WARMUP) continue;
      firstChunk.push(frames.of(eventId).firstChunkAt! - sent);
      const call = vendor.calls.slice(callsBefore).find((c) => callOf(c.body)?.n === String(n));
      if (call !== undefined) toVendor.push(call.at - sentWall);
    }
    const firstChunkOthers = others();
    load.push(loadavg()[0]!);

    progress(
      `agent (${database}): gate decided → the tool runs, ${options.gateSamples} samples after ${WARMUP}`,
    );
    const gate: number[] = [];
    const approveAnswered: number[] = [];
    others = othersMeter(pids);
    for (let n = 0; n < WARMUP + options.gateSamples; n++) {
      if (n === WARMUP) others = othersMeter(pids);
      const eventId = await message(gatedFleet!, "gate", n);
      await frames.until(`the gate of ${eventId}`, () => frames.of(eventId).gateId !== undefined);
      // Past the gate's opening answer: the runner's wait is parked on the gate.
      await sleep(50);
      const path = `/gate/${n}`;
      const decided = performance.now();
      await send(base, `${ws}/approvals/${frames.of(eventId).gateId}/approve`, key, { reason: "bench" });
      const answered = performance.now() - decided;
      await completed(eventId);
      const ran = service.seen.get(path);
      if (n < WARMUP) continue;
      approveAnswered.push(answered);
      if (ran !== undefined) gate.push(ran - decided);
    }
    const gateOthers = others();
    load.push(loadavg()[0]!);

    const concurrent: ConcurrentRound[] = [];
    for (let round = 0; round < options.rounds; round++) {
      progress(
        `agent (${database}): round ${round + 1}/${options.rounds}, ${options.concurrent} runs at once on one runner (worker_count ${workerCount})`,
      );
      concurrent.push(
        await concurrentRound(round, fleets, { message, frames, vendor, pids, api, runner, workerCount }),
      );
      load.push(loadavg()[0]!);
    }
    return {
      database,
      firstChunk: latencies(firstChunk),
      toVendor: latencies(toVendor),
      gate: latencies(gate),
      approveAnswered: latencies(approveAnswered),
      concurrent,
      workerCount,
      maxSteps: MAX_STEPS,
      maxRunMs: MAX_RUN_MS,
      others: { firstChunk: firstChunkOthers, gate: gateOthers },
      load,
    };
  } finally {
    tail?.close();
    // The runner first: its last runs may still call the API.
    for (const server of servers.toReversed()) await stopProcess(server.child);
    await vendor.close();
    service.server.closeAllConnections();
    await new Promise((resolve) => service.server.close(resolve));
    if (profileDir !== undefined) {
      printProfileIn(join(profileDir, "runner"), "CPU profile of the runner (agent suite):", 30);
      printProfileIn(join(profileDir, "api"), "CPU profile of the API (agent suite):", 30);
    }
  }
}
