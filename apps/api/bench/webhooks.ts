import { randomBytes } from "node:crypto";
import { loadavg } from "node:os";
import { openDatabase, parseDatabaseUrl, sql } from "@fleet/db";
import { startWebhookReceiver, type WebhookReceiver } from "@fleet/testing/webhook-receiver";
import { newId } from "../src/runtime/ids.ts";
import { insertBenchFleets, insertBenchRunner, type SeededDatabase } from "./databases.ts";
import { send } from "./gateway.ts";
import { type Latencies, latencies } from "./gateway-load.ts";
import { BenchConnection } from "./http-client.ts";
import { backendsCpuMs, costSnapshot } from "./lease-costs.ts";
import {
  apiServerSpec,
  cpuTimeMs,
  othersMeter,
  type Server,
  startServer,
  stopProcess,
  waitUntilReady,
} from "./processes.ts";

/**
 * Issue 33 §4: the webhook outbox, on its own database (PostgreSQL, PGlite when it is unavailable), the API
 * in dev mode so endpoints may be the bench's local receiver (`@fleet/testing/webhook-receiver`, in this
 * process: a delivery's address check then resolves nothing, as a delivery to an IP literal does).
 * - **Act → delivery**: `samples` gates opened one at a time on a held lease, each timed from its request's
 *   start (the act commits before it is answered, so this is an upper bound of "committed → received") to
 *   its `gate.opened` delivery at the receiver.
 * - **Sustained deliveries to 100 endpoints**: 100 endpoints (50 in each of two new workspaces, the cap), and a
 *   backlog of `events` × 100 pending deliveries written in one transaction while the API runs; timed from
 *   that commit until the receiver has them all, with the API's CPU per delivery.
 * - **The outbox's cost on the message send**: alternating rounds without and with a subscriber, first
 *   with the deliveries going on the same cores, then on the API started again with
 *   FLEET_WEBHOOK_DELIVERY=false (its acts write the outbox, it delivers nothing): the write alone. Each
 *   as sends a second and as CPU a send (the API's and, on PostgreSQL, its backends').
 * Prints figures; asserts no times.
 */
export interface WebhookFigures {
  database: string;
  actToDelivery: Latencies;
  /** The act's own request, start to answer: what of `actToDelivery` is the act, not the outbox. */
  actRequest: Latencies;
  sustained: {
    /** Whether the backlog was analyzed before the drain (a backlog built up over time), or met as a burst. */
    analyzed: boolean;
    endpoints: number;
    deliveries: number;
    seconds: number;
    perSecond: number;
    cpuMsPerDelivery: number | undefined;
    others: number | undefined;
  };
  /**
   * Message sends without and with an `event.received` subscriber, alternating rounds: with deliveries
   * going on meanwhile, then on an API started with FLEET_WEBHOOK_DELIVERY=false (`held`: the write alone).
   */
  messages: { subscribed: boolean; held: boolean; load: number; sends: MessageRun }[];
  load: number[];
}

export interface MessageRun {
  perSecond: number;
  p50: number;
  p99: number;
  /** The API's CPU per send (with a subscriber, its deliveries' too). */
  cpuMs: number | undefined;
  /** The database backends' CPU per send, on PostgreSQL (whatever share of the cores the run got). */
  dbCpuMs: number | undefined;
  failures: number;
}

/** Endpoints a workspace may have (WEBHOOK_ENDPOINTS_MAX): the 100 endpoints span two workspaces. */
const PER_WORKSPACE = 50;

export async function benchWebhooks(
  db: SeededDatabase,
  database: string,
  options: {
    apiDir: string;
    logDir: string;
    samples: number;
    events: number;
    /** Analyze the deliveries table once the backlog is written (BENCH_WEBHOOK_ANALYZE=1). */
    analyze: boolean;
    seconds: number;
    rounds: number;
  },
  progress: (message: string) => void,
): Promise<WebhookFigures> {
  const store = await openDatabase(db.url, { max: 2 });
  let seeded: { token: string; workspaceId: string; fleetIds: string[] };
  try {
    const runner = await insertBenchRunner(store, "webhooks-bench");
    const fleets = await insertBenchFleets(store, `webhooks-bench-${Date.now()}`, MESSAGE_FLEETS);
    seeded = { token: runner.token, ...fleets };
  } finally {
    // PGlite admits one opener: the server opens the store once this has let go of it.
    await store.close();
  }
  const receiver = await startWebhookReceiver();
  let api: Server | undefined;
  const load: number[] = [loadavg()[0]!];
  const masterKey = randomBytes(32).toString("base64");
  // `held`: the API started with FLEET_WEBHOOK_DELIVERY=false, so it writes the outbox and delivers nothing.
  const startApi = async (held: boolean) => {
    const started = await startServer(
      apiServerSpec(`API webhooks (${database}${held ? ", deliveries held" : ""})`, {
        apiDir: options.apiDir,
        logDir: options.logDir,
        env: {
          DATABASE_URL: db.url,
          LOG_LEVEL: "warn",
          FLEET_DEV_MODE: "1",
          FLEET_MASTER_KEY: masterKey,
          FLEET_LEASE_TTL_MS: "300000",
          FLEET_RATE_LIMIT_WORKSPACE: "1000000000",
          FLEET_RATE_LIMIT_CREDENTIAL: "1000000000",
          ...(held ? { FLEET_WEBHOOK_DELIVERY: "false" } : {}),
        },
      }),
    );
    await waitUntilReady(started, "/readyz", { timeoutMs: 120_000 });
    return started;
  };
  try {
    api = await startApi(false);
    const base = api.baseUrl;
    const ws = `/v1/workspaces/${seeded.workspaceId}`;

    progress(`webhooks (${database}): act → delivery, ${options.samples} gates opened one at a time`);
    await send(base, `${ws}/webhook-endpoints`, db.apiKey, {
      url: `${receiver.url}/latency`,
      event_types: ["gate.opened"],
    });
    await send(base, `${ws}/fleets/${seeded.fleetIds[0]}/messages`, db.apiKey, { message: "bench" });
    const acquired = await send(base, "/v1/runners/me/leases", seeded.token, { wait_ms: 0 });
    const lease = acquired.lease as { lease_id: string; fencing_token: number } | null;
    if (lease === null) throw new Error("the bench fleet could not be leased");
    const { actToDelivery, actRequest } = await timeGates(
      base,
      seeded.token,
      lease,
      receiver,
      options.samples,
    );
    load.push(loadavg()[0]!);

    progress(`webhooks (${database}): 100 endpoints, a backlog of ${options.events} events each`);
    const endpointIds: string[] = [];
    const workspaceIds: string[] = [];
    for (const name of ["Webhooks bench A", "Webhooks bench B"]) {
      const workspaceId = String((await send(base, "/v1/workspaces", db.apiKey, { name })).workspace_id);
      workspaceIds.push(workspaceId);
      for (let i = 0; i < PER_WORKSPACE; i++) {
        const created = await send(base, `/v1/workspaces/${workspaceId}/webhook-endpoints`, db.apiKey, {
          url: `${receiver.url}/sustained/${endpointIds.length}`,
          // A type nothing here causes: the endpoints get the backlog only.
          event_types: ["event.failed"],
        });
        endpointIds.push(String(created.id));
      }
    }
    const sustained = await drainBacklog(
      db.url,
      api,
      receiver,
      endpointIds,
      workspaceIds,
      { events: options.events, analyze: options.analyze },
      progress,
    );
    load.push(loadavg()[0]!);

    // The outbox's cost to the act: message sends with no subscriber of `event.received` (the endpoint
    // disabled: the send still reads the workspace's endpoints) and with one (enabled), alternating; first
    // with the deliveries going on the same cores, then on an API that holds them (the write alone).
    const subscriber = await send(base, `${ws}/webhook-endpoints`, db.apiKey, {
      url: `${receiver.url}/received`,
      event_types: ["event.received"],
      enabled: false,
    });
    const messages: WebhookFigures["messages"] = [];
    for (const held of [false, true]) {
      if (held) {
        await stopProcess(api.child);
        api = undefined;
        api = await startApi(true);
      }
      const running = api;
      for (let round = 0; round < options.rounds * 2; round++) {
        const subscribed = round % 2 === 1;
        await send(
          running.baseUrl,
          `${ws}/webhook-endpoints/${subscriber.id}`,
          db.apiKey,
          { enabled: subscribed },
          "PATCH",
        );
        progress(
          `webhooks (${database}): message sends ${subscribed ? "with" : "without"} a subscriber${held ? ", deliveries held" : ""}, ${options.seconds}s`,
        );
        messages.push({
          subscribed,
          held,
          load: loadavg()[0]!,
          sends: await sendMessages(
            running.baseUrl,
            db.apiKey,
            ws,
            seeded.fleetIds,
            running,
            options.seconds,
            parseDatabaseUrl(db.url).kind === "postgres" ? db.url : undefined,
          ),
        });
      }
      load.push(loadavg()[0]!);
    }
    return { database, actToDelivery, actRequest, sustained, messages, load };
  } finally {
    if (api !== undefined) await stopProcess(api.child);
    await receiver.close();
  }
}

/** Fleets the message sends spread over (the first is also the act → delivery fleet). */
const MESSAGE_FLEETS = 20;
/** Connections sending messages at once. */
const SENDERS = 16;

/** Sends messages over `SENDERS` keep-alive connections for `seconds`, each timed. */
async function sendMessages(
  base: string,
  apiKey: string,
  ws: string,
  fleetIds: string[],
  api: Server,
  seconds: number,
  postgresUrl: string | undefined,
): Promise<MessageRun> {
  const times: number[] = [];
  let failures = 0;
  const dbBefore = postgresUrl === undefined ? undefined : await costSnapshot(postgresUrl, undefined);
  const cpuBefore = cpuTimeMs(api.child.pid);
  const started = performance.now();
  const until = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: SENDERS }, async (_, sender) => {
      const connection = BenchConnection.to(base);
      try {
        for (let n = sender; performance.now() < until; n += SENDERS) {
          const at = performance.now();
          const answer = await connection.post(
            `${ws}/fleets/${fleetIds[n % fleetIds.length]}/messages`,
            apiKey,
            {
              message: "Summarise the open incidents",
            },
          );
          if (answer.status === 202) times.push(performance.now() - at);
          else failures += 1;
        }
      } finally {
        connection.close();
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  const cpuAfter = cpuTimeMs(api.child.pid);
  const dbAfter = postgresUrl === undefined ? undefined : await costSnapshot(postgresUrl, undefined);
  const sorted = latencies(times);
  return {
    perSecond: times.length / elapsed,
    p50: sorted.p50,
    p99: sorted.p99,
    cpuMs:
      cpuBefore === undefined || cpuAfter === undefined ? undefined : (cpuAfter - cpuBefore) / times.length,
    dbCpuMs:
      dbBefore === undefined || dbAfter === undefined
        ? undefined
        : backendsCpuMs(dbBefore, dbAfter) / Math.max(1, times.length),
    failures,
  };
}

/** Opens gates one at a time, each timed from its request to its delivery. */
async function timeGates(
  base: string,
  token: string,
  lease: { lease_id: string; fencing_token: number },
  receiver: WebhookReceiver,
  samples: number,
): Promise<{ actToDelivery: Latencies; actRequest: Latencies }> {
  const times: number[] = [];
  const requests: number[] = [];
  for (let i = 0; i < samples + 10; i++) {
    const from = receiver.received.length;
    const started = performance.now();
    const gate = await send(base, `/v1/runners/me/leases/${lease.lease_id}/gates`, token, {
      fencing_token: lease.fencing_token,
      action_id: newId(Date.now()),
      tool_name: "deploy",
      action_name: `release ${i}`,
      gate_kind: "deploy",
      proposed_action: "deploy web@v2 to production",
      evidence: { service: "web", from: "v1", to: "v2" },
      blast_radius: "production web",
      detail: "The release asks for an approval before production.",
      timeout_ms: 3_600_000,
    });
    const answered = performance.now();
    await receiver.waitFor((delivery) => delivery.body.includes(String(gate.gate_id)), 10_000, from);
    // The first ten warm the paths up.
    if (i >= 10) {
      times.push(performance.now() - started);
      requests.push(answered - started);
    }
  }
  return { actToDelivery: latencies(times), actRequest: latencies(requests) };
}

/**
 * Writes `events` events in each of the endpoints' workspaces in one transaction, as acts would have, all
 * at once, and times the API delivering them all to the receiver from that commit. By default a burst:
 * each event goes alone, and the API fans it out to its workspace's endpoints, then delivers; the planner
 * meets the deliveries with the statistics of the handful of rows the table held before. With `analyze`,
 * a backlog built up over time: the deliveries are written with their events (fanned out as they came)
 * and the table is analyzed (docs/decisions/webhooks.md, "Figures").
 */
async function drainBacklog(
  url: string,
  api: Server,
  receiver: WebhookReceiver,
  endpointIds: string[],
  workspaceIds: string[],
  backlog: { events: number; analyze: boolean },
  progress: (message: string) => void,
): Promise<WebhookFigures["sustained"]> {
  const { events } = backlog;
  const store = await openDatabase(url, { max: 1 });
  const expected = receiver.received.length + events * endpointIds.length;
  const others = othersMeter([api.child.pid]);
  const cpuBefore = cpuTimeMs(api.child.pid);
  let started = 0;
  try {
    const now = Date.now();
    const data = JSON.stringify({
      gate_id: newId(now),
      status: "pending",
      evidence: { service: "web", from: "v1", to: "v2", note: "x".repeat(600) },
    });
    const eventIds = Array.from({ length: events * workspaceIds.length }, () => newId(now));
    await store.db.transaction(async (tx) => {
      // Each workspace's events in turn, `events` apiece; a burst goes alone, for the API to fan out.
      await tx.execute(sql`
        insert into webhook_events (id, tenant_id, workspace_id, fleet_id, type, resource, data, created_at,
          fanned_out)
        select e.id, w.tenant_id, w.id, null, 'event.failed', 'fleet_event:' || e.id, ${data}::jsonb,
          ${now}::bigint, ${backlog.analyze}
        from unnest(${`{${eventIds.join(",")}}`}::uuid[]) with ordinality e(id, n)
        join workspaces w on w.id = (${`{${workspaceIds.join(",")}}`}::uuid[])[(1 + (e.n - 1) / ${events}::int)::int]`);
      if (backlog.analyze) {
        // A backlog built up over time was fanned out as it came: its deliveries are written.
        await tx.execute(sql`
          insert into webhook_deliveries (endpoint_id, event_id, resource, type, status, attempts,
            next_attempt_at, created_at, updated_at)
          select p.id, e.id, e.resource, e.type, 'pending', 0, ${now}::bigint, ${now}::bigint, ${now}::bigint
          from webhook_events e join webhook_endpoints p on p.workspace_id = e.workspace_id
          where e.id = any(${`{${eventIds.join(",")}}`}::uuid[])`);
      }
      started = performance.now();
    });
    if (backlog.analyze) await store.db.execute(sql`analyze webhook_deliveries`);
  } finally {
    await store.close();
  }
  progress(`webhooks: ${events * endpointIds.length} deliveries pending, draining`);
  const deadline = started + 300_000;
  while (receiver.received.length < expected && performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const seconds = (performance.now() - started) / 1000;
  const cpuAfter = cpuTimeMs(api.child.pid);
  const delivered = receiver.received.length - (expected - events * endpointIds.length);
  return {
    analyzed: backlog.analyze,
    endpoints: endpointIds.length,
    deliveries: delivered,
    seconds,
    perSecond: delivered / seconds,
    cpuMsPerDelivery:
      cpuBefore === undefined || cpuAfter === undefined ? undefined : (cpuAfter - cpuBefore) / delivered,
    others: others(),
  };
}

/** The webhooks suite's printout. */
export function printWebhookFigures(f: WebhookFigures): void {
  const ms = (value: number) => `${value.toFixed(2)} ms`;
  const pct = (share: number | undefined) => (share === undefined ? "n/a" : `${(share * 100).toFixed(0)}%`);
  const a = f.actToDelivery;
  console.log(`\nWebhook outbox (issue 33 §4), ${f.database}, local receiver in the bench process`);
  console.log(
    `  machine load (1-min load average) along the run: ${f.load.map((l) => l.toFixed(2)).join(" → ")}`,
  );
  console.log(
    `  act (gate opened) → delivery received, from the act's request: p50 ${ms(a.p50)}, p99 ${ms(a.p99)}, max ${ms(a.max)} (${a.count} gates)${a.p99 > 100 ? " (goal p99 ≤ 100 ms: MISSED)" : ""}`,
  );
  const r = f.actRequest;
  console.log(`    of which the act's own request (start → answer): p50 ${ms(r.p50)}, p99 ${ms(r.p99)}`);
  const s = f.sustained;
  console.log(
    `  sustained (${s.analyzed ? "backlog analyzed" : "a burst, not analyzed"}): ${s.deliveries} deliveries to ${s.endpoints} endpoints in ${s.seconds.toFixed(2)} s: ${s.perSecond.toFixed(0)} a second${s.perSecond < 2000 ? " (goal ≥ 2,000: MISSED)" : ""}; API CPU ${s.cpuMsPerDelivery === undefined ? "n/a" : ms(s.cpuMsPerDelivery)} a delivery; others' CPU ${pct(s.others)}`,
  );
  const median = (values: number[]) =>
    [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)] ?? NaN;
  for (const m of f.messages) {
    const r = m.sends;
    console.log(
      `  message sends ${m.subscribed ? "with" : "without"} an event.received subscriber${m.held ? " (deliveries held)" : ""}: ${r.perSecond.toFixed(0)}/s, p50 ${ms(r.p50)}, p99 ${ms(r.p99)}, API CPU ${r.cpuMs === undefined ? "n/a" : ms(r.cpuMs)}, PostgreSQL CPU ${r.dbCpuMs === undefined ? "n/a" : ms(r.dbCpuMs)} a send${r.failures > 0 ? `, ${r.failures} failed` : ""} (load ${m.load.toFixed(2)})`,
    );
  }
  for (const held of [false, true]) {
    const runs = (subscribed: boolean) =>
      f.messages.filter((m) => m.subscribed === subscribed && m.held === held).map((m) => m.sends);
    const without = median(runs(false).map((r) => r.perSecond));
    const withOne = median(runs(true).map((r) => r.perSecond));
    const cost = (without - withOne) / without;
    console.log(
      `  the outbox's cost on the message send (median sends/s), ${held ? "the write alone (deliveries held)" : "its deliveries included"}: ${(cost * 100).toFixed(1)}%${cost > 0.05 ? " (goal ≤ 5%: MISSED)" : ""}`,
    );
    // The same cost as CPU spent per send, the API's and the database's: what the machine's other load
    // moves far less than it moves sends a second.
    const spent = (subscribed: boolean) =>
      median(runs(subscribed).map((r) => (r.cpuMs ?? NaN) + (r.dbCpuMs ?? NaN)));
    const cpuCost = (spent(true) - spent(false)) / spent(false);
    if (Number.isFinite(cpuCost)) {
      console.log(
        `    in CPU a send (API + PostgreSQL, medians): ${ms(spent(false))} without, ${ms(spent(true))} with: ${(cpuCost * 100).toFixed(1)}%${cpuCost > 0.05 ? " (goal ≤ 5%: MISSED)" : ""}`,
      );
    }
  }
}
