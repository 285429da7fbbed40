import { randomBytes } from "node:crypto";
import { copyFileSync, mkdirSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase } from "@fleet/db";
import { type FakeModelVendor, modelVendorEnv, startFakeModelVendor } from "@fleet/testing/fake-model-vendor";
import {
  BENCH_MODEL,
  insertBenchFleets,
  insertBenchModel,
  insertBenchRunner,
  type SeededDatabase,
} from "./databases.ts";
import { type LiveTailFigures, liveTailFigure } from "./gateway-live.ts";
import { type Concurrent, concurrentStreams, type Paired, pairedCalls, type Target } from "./gateway-load.ts";
import { apiServerSpec, type Server, startServer, stopProcess, waitUntilReady } from "./processes.ts";
import { mainThreadProfile, printProfileIn } from "./profile.ts";

/**
 * Issue 31 §4: the model gateway against the fake vendor, side by side in one run. Added latency of an
 * unstreamed call (the vendor directly vs through the gateway, alternating), added time to a stream's
 * first chunk, and 200 concurrent streaming calls: the gateway's CPU per call against a bare node:http
 * stream proxy (bench/servers/stream-proxy.ts) in rounds, and a chunk frame from the gateway to a
 * live-tail subscriber (bench/gateway-live.ts). Prints figures; asserts no times.
 */
export interface GatewayFigures {
  database: string;
  unstreamed: Paired;
  firstChunk: Paired;
  concurrency: number;
  rounds: { gateway: Concurrent; proxy: Concurrent }[];
  liveTail: LiveTailFigures;
  load: number[];
}

/** Calls open at once on one lease are capped at 8; 7 a lease keeps a just-ended call's slot from racing. */
const PER_LEASE = 7;

export async function send(base: string, path: string, token: string, body: unknown, method = "POST") {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status >= 300) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
  return JSON.parse(text) as Record<string, unknown>;
}

/** The catalogue row, a runner, and `count` fleets, written before the server holds the store. */
async function seed(db: SeededDatabase, count: number) {
  const database = await openDatabase(db.url, { max: 1 });
  try {
    await insertBenchModel(database);
    const { token } = await insertBenchRunner(database, "gateway-bench");
    const fleets = await insertBenchFleets(database, `gateway-bench-${Date.now()}`, count);
    return { token, ...fleets };
  } finally {
    await database.close();
  }
}

interface Lease {
  lease_id: string;
  fencing_token: number;
}

export async function benchGateway(
  db: SeededDatabase,
  database: string,
  options: {
    apiDir: string;
    logDir: string;
    seconds: number;
    warmupSeconds: number;
    rounds: number;
    profile: boolean;
  },
  progress: (message: string) => void,
): Promise<GatewayFigures> {
  const concurrency = 200;
  const leaseCount = Math.ceil(concurrency / PER_LEASE);
  const seeded = await seed(db, leaseCount);
  const vendor: FakeModelVendor = await startFakeModelVendor({
    apiKey: `sk-bench-${randomBytes(8).toString("hex")}`,
  });
  const servers: Server[] = [];
  // BENCH_PROFILE=1: the API runs under --cpu-prof; the summary is printed once it has stopped.
  const profileDir = options.profile ? join(options.logDir, "gateway-profile") : undefined;
  if (profileDir !== undefined) mkdirSync(profileDir, { recursive: true });
  try {
    const api = await startServer(
      apiServerSpec(`API gateway (${database})`, {
        apiDir: options.apiDir,
        logDir: options.logDir,
        ...(profileDir === undefined ? {} : { profileDir }),
        env: {
          DATABASE_URL: db.url,
          LOG_LEVEL: "warn",
          FLEET_MASTER_KEY: randomBytes(32).toString("base64"),
          FLEET_LEASE_TTL_MS: "300000",
          // The limiter on, as deployed, with quotas no run reaches: the figure is the gateway's cost.
          FLEET_RATE_LIMIT_WORKSPACE: "1000000000",
          FLEET_RATE_LIMIT_CREDENTIAL: "1000000000",
          ...modelVendorEnv(vendor),
        },
      }),
    );
    servers.push(api);
    const proxy = await startServer({
      name: "bare stream proxy",
      nodeArgs: ["--import", "tsx", "bench/servers/stream-proxy.ts"],
      cwd: options.apiDir,
      env: { UPSTREAM: vendor.openaiBaseUrl, UPSTREAM_KEY: vendor.apiKey },
      logDir: options.logDir,
    });
    servers.push(proxy);
    await waitUntilReady(api, "/readyz", { timeoutMs: 120_000 });
    await waitUntilReady(proxy, "/");
    const base = api.baseUrl;
    await send(
      base,
      "/v1/tenants/me/provider",
      db.apiKey,
      { provider: "openai", model: BENCH_MODEL, api_key: vendor.apiKey },
      "PUT",
    );
    const ws = `/v1/workspaces/${seeded.workspaceId}`;
    for (const fleetId of seeded.fleetIds)
      await send(base, `${ws}/fleets/${fleetId}/messages`, db.apiKey, { message: "bench" });
    const leases: Lease[] = [];
    for (let i = 0; i < leaseCount; i++) {
      const acquired = await send(base, "/v1/runners/me/leases", seeded.token, { wait_ms: 0 });
      if (acquired.lease === null) throw new Error(`only ${i} of ${leaseCount} fleets could be leased`);
      leases.push(acquired.lease as Lease);
    }
    const renew = () =>
      Promise.all(
        leases.map((lease) =>
          send(base, `/v1/runners/me/leases/${lease.lease_id}/renew`, seeded.token, {
            fencing_token: lease.fencing_token,
          }),
        ),
      );
    const gatewayTarget = (lease: Lease): Target => ({
      url: `${base}/v1/runners/me/leases/${lease.lease_id}/model/chat/completions`,
      headers: {
        authorization: `Bearer ${seeded.token}`,
        "fleet-fencing-token": String(lease.fencing_token),
      },
    });
    const direct: Target = {
      url: `${vendor.openaiBaseUrl}/chat/completions`,
      headers: { authorization: `Bearer ${vendor.apiKey}` },
    };
    const viaProxy: Target = { url: `${proxy.baseUrl}/chat/completions`, headers: {} };
    const load: number[] = [loadavg()[0]!];
    const pids = [api.child.pid, proxy.child.pid];
    const timing = { seconds: options.seconds, warmupSeconds: options.warmupSeconds, pids };

    progress(`gateway (${database}): unstreamed calls, vendor directly vs through the gateway, alternating`);
    const unstreamed = await pairedCalls(
      direct,
      gatewayTarget(leases[0]!),
      { ...timing, stream: false },
      (t) => t.totalMs,
    );
    vendor.calls.length = 0;
    await renew();
    progress(`gateway (${database}): streamed calls, time to the first chunk`);
    const firstChunk = await pairedCalls(
      direct,
      gatewayTarget(leases[0]!),
      { ...timing, stream: true },
      (t) => t.firstMs,
    );
    vendor.calls.length = 0;
    load.push(loadavg()[0]!);

    const rounds: GatewayFigures["rounds"] = [];
    for (let round = 0; round < options.rounds; round++) {
      await renew();
      const sides = {
        gateway: () =>
          concurrentStreams(vendor, api.child.pid, (c) => gatewayTarget(leases[c % leaseCount]!), {
            concurrency,
            seconds: options.seconds,
          }),
        proxy: () =>
          concurrentStreams(vendor, proxy.child.pid, () => viaProxy, {
            concurrency,
            seconds: options.seconds,
          }),
      };
      const order = round % 2 === 0 ? (["gateway", "proxy"] as const) : (["proxy", "gateway"] as const);
      const measured: Partial<Record<"gateway" | "proxy", Concurrent>> = {};
      for (const side of order) {
        progress(
          `gateway (${database}): round ${round + 1}/${options.rounds}, ${concurrency} concurrent streams, ${side}`,
        );
        measured[side] = await sides[side]();
      }
      rounds.push({ gateway: measured.gateway!, proxy: measured.proxy! });
      load.push(loadavg()[0]!);
    }
    await renew();
    progress(`gateway (${database}): ${leaseCount} streamed calls at once, one a lease, the live tail open`);
    const liveTail = await liveTailFigure(
      vendor,
      api.child.pid,
      leases.map((lease) => ({ id: lease.lease_id, target: gatewayTarget(lease) })),
      { url: `${base}${ws}/events/stream?kinds=chunk`, token: db.apiKey },
      options.seconds,
    );
    load.push(loadavg()[0]!);
    return { database, unstreamed, firstChunk, concurrency, rounds, liveTail, load };
  } finally {
    for (const server of servers) await stopProcess(server.child);
    await vendor.close();
    if (profileDir !== undefined) {
      printProfileIn(profileDir, "CPU profile of the API (gateway suite):", 40);
      const profile = mainThreadProfile(profileDir);
      const kept = join(tmpdir(), `fleet-bench-gateway-${process.pid}.cpuprofile`);
      if (profile !== undefined) copyFileSync(profile, kept);
      console.log(`  (kept at ${kept})`);
    }
  }
}
