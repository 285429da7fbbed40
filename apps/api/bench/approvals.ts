/**
 * Figures for issue #14 (approval gates), on PostgreSQL and on embedded PGlite:
 * - a decision → the runner long-polling the gate is woken (approve request sent → waiter's answer in);
 * - 20 concurrent approvers on 1,000 pending gates (each gate answered once), and the same 20 all walking
 *   one inbox oldest-first (every gate raced by all of them: one 200, the rest 409);
 * - the inbox at 1,000,000 pending gates: its first page against its deepest (the last) page.
 * Gates, the runner and its lease are written straight to the store: opening gates through the API would
 * time the opening, not the figure. Prints figures beside their targets; never fails on a miss.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { type DatabaseHandle, openDatabase, runners } from "@fleet/db";
import { mintSecret, RUNNER_TOKEN_PREFIX, sha256Hex } from "../src/auth/tokens.ts";
import { newId } from "../src/runtime/ids.ts";
import { encodeCursor } from "../src/services/shared/keyset.ts";
import { insertBenchFleets, type SeededDatabase } from "./databases.ts";
import { type Answer, BenchConnection } from "./http-client.ts";
import {
  apiServerSpec,
  cpuTimeMs,
  othersMeter,
  type Server,
  startServer,
  stopProcess,
  waitUntilReady,
} from "./processes.ts";
import { printProfileIn } from "./profile.ts";

const APPROVERS = 20;
const DISTINCT_GATES = 1_000;
const CONTENDED_GATES = 250;
const PAGE = 50;
/** Decisions timed before the measured ones, so the first requests' warm-up is not in the figure. */
const WAKE_WARMUP = 10;

interface Place {
  tenantId: string;
  workspaceId: string;
  fleetId: string;
  leaseId: string;
  eventId: string;
  runnerToken: string;
}

export interface Latencies {
  samples: number;
  p50: number;
  p99: number;
  max: number;
}

export interface ApproverRun extends Latencies {
  gates: number;
  requests: number;
  decisionsPerSecond: number;
  requestsPerSecond: number;
  /** Gates with other than exactly one 200 (must be 0), and answers that were neither 200 nor 409. */
  wrongWinners: number;
  errors: number;
  /** Share of both cores other processes took during the run (this machine is shared). */
  othersCpu?: number | undefined;
  /** The server's CPU time per answer: steadier than the latencies on a busy machine. */
  cpuUsPerAnswer?: number | undefined;
}

export interface ApprovalFigures {
  database: string;
  wake: Latencies & { approve: Latencies; wrong: number; othersCpu?: number | undefined };
  distinct: ApproverRun;
  contended: ApproverRun;
  inbox:
    | {
        depth: number;
        seedSeconds: number;
        first: Latencies;
        deep: Latencies;
        deepItems: number;
        othersCpu?: number | undefined;
      }
    | string;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

function latencies(values: number[]): Latencies {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    samples: sorted.length,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    max: sorted.at(-1) ?? Number.NaN,
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The server's CPU time (ms) from now until the returned function is called, per `count` requests (µs). */
function serverCpu(server: Server): (count: number) => number | undefined {
  const before = cpuTimeMs(server.child.pid);
  return (count) => {
    const after = cpuTimeMs(server.child.pid);
    return before === undefined || after === undefined || count === 0
      ? undefined
      : ((after - before) * 1000) / count;
  };
}

/** One bench fleet, a runner holding a lease on it (the wait route checks the lease is the runner's). */
async function seedPlace(database: DatabaseHandle): Promise<Place> {
  const { workspaceId, fleetIds } = await insertBenchFleets(database, `approval-bench-${Date.now()}`, 1);
  const [workspace] = await database.query<{ tenant_id: string }>(
    "select tenant_id from workspaces where id = $1",
    [workspaceId],
  );
  const now = Date.now();
  const runnerId = newId(now);
  const runnerToken = mintSecret(RUNNER_TOKEN_PREFIX);
  await database.db.insert(runners).values({
    id: runnerId,
    hostId: "approval-bench",
    tokenHash: sha256Hex(runnerToken),
    labels: [],
    createdAt: now,
    updatedAt: now,
    lastHeartbeatAt: now,
  });
  const leaseId = newId(now);
  const eventId = newId(now);
  await database.query(
    `insert into leases (id, runner_id, fleet_id, workspace_id, event_id, fencing_token, kind, status, created_at, expires_at)
     values ($1, $2, $3, $4, $5, 1, 'fresh', 'running', $6, $7)`,
    [leaseId, runnerId, fleetIds[0], workspaceId, eventId, now, now + 24 * 3_600_000],
  );
  return {
    tenantId: workspace!.tenant_id,
    workspaceId,
    fleetId: fleetIds[0]!,
    leaseId,
    eventId,
    runnerToken,
  };
}

/**
 * `count` pending gates of the bench fleet, requested one a millisecond from `from`, due in 30 days (the
 * sweeper leaves them alone); written by the database itself, with UUIDv7 ids of their request time as
 * the service mints them (the routes refuse any other). Answers their ids, oldest first.
 */
async function insertGates(
  database: DatabaseHandle,
  place: Place,
  count: number,
  from: number,
  answerIds = true,
): Promise<string[]> {
  await database.query(
    `insert into approval_gates (id, tenant_id, workspace_id, fleet_id, fleet_name, action_id, lease_id, event_id,
       tool_name, action_name, gate_kind, proposed_action, evidence, blast_radius, detail, status,
       requested_at, timeout_at, updated_at)
     select (lpad(to_hex($6::bigint + n), 12, '0') || '7' || substr(h, 1, 3) || substr('89ab', 1 + (n % 4)::int, 1)
         || substr(h, 4, 15))::uuid,
       $1, $2, $3, 'approval-bench', gen_random_uuid(), $4, $5,
       'github', 'merge_pull_request', 'repair', 'merge PR #' || n, '{"checks":"green","diff_lines":12}',
       'one repository', 'bench gate', 'pending', $6::bigint + n, $6::bigint + n + 2592000000, $6::bigint + n
     from generate_series(1, ${count}) as n, lateral (select md5(random()::text || n::text) as h) as r`,
    [place.tenantId, place.workspaceId, place.fleetId, place.leaseId, place.eventId, from],
  );
  if (!answerIds) return [];
  const rows = await database.query<{ id: string }>(
    `select id from approval_gates where fleet_id = $1 and status = 'pending' and requested_at > $2::bigint
     and requested_at <= $2::bigint + ${count} order by requested_at, id`,
    [place.fleetId, from],
  );
  return rows.map((row) => row.id);
}

/** A runner long-polls each gate; once it waits, a person approves; the time until the runner has it. */
async function wake(base: string, place: Place, apiKey: string, gateIds: string[]) {
  const waiter = BenchConnection.to(base);
  const approver = BenchConnection.to(base);
  const woken: number[] = [];
  const approve: number[] = [];
  let wrong = 0;
  try {
    for (const [n, gateId] of gateIds.entries()) {
      const waiting = waiter
        .get(`/v1/runners/me/leases/${place.leaseId}/gates/${gateId}?wait_ms=10000`, place.runnerToken)
        .then((answer) => ({ answer, at: performance.now() }));
      // Past its first read: the request is parked on the gate signal.
      await sleep(25);
      const sent = performance.now();
      const decided = await approver.post(
        `/v1/workspaces/${place.workspaceId}/approvals/${gateId}/approve`,
        apiKey,
        { reason: "bench" },
      );
      const approved = performance.now() - sent;
      const { answer, at } = await waiting;
      const gate = answer.body as { status?: string };
      if (decided.status !== 200 || answer.status !== 200 || gate.status !== "approved") {
        if (wrong++ === 0)
          console.error(`wake: approve ${decided.status}, waiter ${answer.status} ${JSON.stringify(gate)}`);
        continue;
      }
      if (n < WAKE_WARMUP) continue;
      approve.push(approved);
      woken.push(at - sent);
    }
  } finally {
    waiter.close();
    approver.close();
  }
  return { ...latencies(woken), approve: latencies(approve), wrong };
}

/**
 * Twenty approvers answering at once, each on its own keep-alive connection with its own API key.
 * `distinct`: they take the next unanswered gate from one queue (each gate answered once). Otherwise
 * every approver walks all the gates oldest-first, as twenty people reading one inbox would.
 */
async function approvers(
  base: string,
  place: Place,
  keys: string[],
  gateIds: string[],
  distinct: boolean,
): Promise<ApproverRun> {
  const timings: number[] = [];
  const wins = new Map<string, number>();
  let errors = 0;
  let next = 0;
  const answer = async (connection: BenchConnection, key: string, gateId: string, n: number) => {
    const verb = n % 4 === 3 ? "deny" : "approve";
    const started = performance.now();
    const answered: Answer = await connection.post(
      `/v1/workspaces/${place.workspaceId}/approvals/${gateId}/${verb}`,
      key,
      { reason: `bench ${n}` },
    );
    timings.push(performance.now() - started);
    if (answered.status === 200) wins.set(gateId, (wins.get(gateId) ?? 0) + 1);
    else if (answered.status !== 409) {
      if (errors++ === 0) console.error(`an answer got ${answered.status}: ${JSON.stringify(answered.body)}`);
    }
  };
  const started = performance.now();
  await Promise.all(
    keys.map(async (key, k) => {
      const connection = BenchConnection.to(base);
      try {
        if (distinct) {
          while (next < gateIds.length) {
            const n = next++;
            await answer(connection, key, gateIds[n]!, n);
          }
        } else {
          for (const [n, gateId] of gateIds.entries()) await answer(connection, key, gateId, n + k);
        }
      } finally {
        connection.close();
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return {
    ...latencies(timings),
    gates: gateIds.length,
    requests: timings.length,
    decisionsPerSecond: [...wins.values()].reduce((sum, n) => sum + n, 0) / seconds,
    requestsPerSecond: timings.length / seconds,
    wrongWinners: gateIds.filter((id) => wins.get(id) !== 1).length,
    errors,
  };
}

/**
 * The first page and the deepest (the last 50 of `total` pending gates, its cursor made with the API's
 * own codec from the 51st-newest row), read alternately so both see the same machine.
 */
async function inboxPages(base: string, place: Place, apiKey: string, deepCursor: string, samples: number) {
  const connection = BenchConnection.to(base);
  const path = `/v1/workspaces/${place.workspaceId}/approvals?limit=${PAGE}`;
  const first: number[] = [];
  const deep: number[] = [];
  let deepItems = 0;
  try {
    for (let i = -20; i < samples; i++) {
      for (const [url, into] of [
        [path, first],
        [`${path}&cursor=${deepCursor}`, deep],
      ] as const) {
        const started = performance.now();
        const page = await connection.get(url, apiKey);
        const took = performance.now() - started;
        const body = page.body as { items?: unknown[]; next_cursor?: string | null };
        if (page.status !== 200 || body.items?.length !== PAGE) {
          throw new Error(`the inbox answered ${page.status} with ${body.items?.length} items`);
        }
        if (into === deep) {
          if (body.next_cursor !== null) throw new Error("the deepest page has a next page");
          deepItems = body.items.length;
        }
        if (i >= 0) into.push(took);
      }
    }
  } finally {
    connection.close();
  }
  return { first: latencies(first), deep: latencies(deep), deepItems };
}

async function startApi(
  db: SeededDatabase,
  name: string,
  options: { apiDir: string; logDir: string },
  profileDir?: string,
) {
  const server = await startServer(
    apiServerSpec(name, {
      apiDir: options.apiDir,
      logDir: options.logDir,
      // Twenty approvers racing one workspace pass its request quota: this suite measures answers, and
      // the `limits` suite measures the limiter.
      env: {
        DATABASE_URL: db.url,
        LOG_LEVEL: "warn",
        FLEET_RECONCILE_INTERVAL_MS: "60000",
        FLEET_RATE_LIMITS: "false",
      },
      ...(profileDir === undefined ? {} : { profileDir }),
    }),
  );
  await waitUntilReady(server, "/healthz", { timeoutMs: 120_000 });
  return server;
}

/** Twenty tenant API keys minted through the route, each acting with the bench owner's scopes. */
async function mintKeys(server: Server, apiKey: string): Promise<string[]> {
  const connection = BenchConnection.to(server.baseUrl);
  try {
    const keys: string[] = [];
    for (let i = 0; i < APPROVERS; i++) {
      const minted = await connection.post("/v1/api-keys", apiKey, { key_name: `approver ${i}` });
      if (minted.status !== 201) throw new Error(`minting a key answered ${minted.status}`);
      keys.push((minted.body as { key: string }).key);
    }
    return keys;
  } finally {
    connection.close();
  }
}

export async function benchApprovals(
  db: SeededDatabase,
  database: string,
  options: {
    apiDir: string;
    logDir: string;
    inboxDepth: number;
    wakeSamples: number;
    pageSamples: number;
    /** Profile the API through the wake and approver runs and print where its time went. */
    profile?: boolean;
  },
  progress: (message: string) => void,
): Promise<ApprovalFigures> {
  const seeding = await openDatabase(db.url, { max: 2, statementTimeoutMs: 600_000 });
  let place: Place;
  let wakeGates: string[];
  let distinctGates: string[];
  let contendedGates: string[];
  const base = Date.now() - 10 * 86_400_000;
  try {
    place = await seedPlace(seeding);
    wakeGates = await insertGates(seeding, place, WAKE_WARMUP + options.wakeSamples, base);
    distinctGates = await insertGates(seeding, place, DISTINCT_GATES, base + 100_000);
    contendedGates = await insertGates(seeding, place, CONTENDED_GATES, base + 200_000);
  } finally {
    // An embedded directory admits one opener: the server opens it next.
    await seeding.close();
  }

  const profileDir = options.profile ? join(options.logDir, `approvals-profile-${database}`) : undefined;
  if (profileDir !== undefined) mkdirSync(profileDir, { recursive: true });
  let server = await startApi(db, `API approvals (${database})`, options, profileDir);
  let wakeFigures: ApprovalFigures["wake"];
  let distinct: ApproverRun;
  let contended: ApproverRun;
  try {
    progress(`${database}: decision → waiting runner woken, ${options.wakeSamples} samples`);
    let others = othersMeter([server.child.pid]);
    wakeFigures = await wake(server.baseUrl, place, db.apiKey, wakeGates);
    wakeFigures.othersCpu = others();
    const keys = await mintKeys(server, db.apiKey);
    progress(`${database}: ${APPROVERS} approvers on ${DISTINCT_GATES} gates, each answered once`);
    others = othersMeter([server.child.pid]);
    let cpu = serverCpu(server);
    distinct = await approvers(server.baseUrl, place, keys, distinctGates, true);
    distinct.othersCpu = others();
    distinct.cpuUsPerAnswer = cpu(distinct.requests);
    progress(`${database}: ${APPROVERS} approvers all walking ${CONTENDED_GATES} gates oldest-first`);
    others = othersMeter([server.child.pid]);
    cpu = serverCpu(server);
    contended = await approvers(server.baseUrl, place, keys, contendedGates, false);
    contended.othersCpu = others();
    contended.cpuUsPerAnswer = cpu(contended.requests);
  } finally {
    await stopProcess(server.child);
  }
  if (profileDir !== undefined) {
    printProfileIn(
      profileDir,
      `CPU profile of the API (${database}) through the wake and approver runs:`,
      30,
    );
  }

  let inbox: ApprovalFigures["inbox"];
  if (options.inboxDepth === 0) inbox = "skipped (depth 0)";
  else {
    progress(`${database}: seeding ${options.inboxDepth.toLocaleString("en-US")} pending gates`);
    const started = performance.now();
    const filling = await openDatabase(db.url, { max: 2, statementTimeoutMs: 3_600_000 });
    let deepCursor: string;
    try {
      await insertGates(filling, place, options.inboxDepth, base + 1_000_000, false);
      await filling.query("analyze approval_gates");
      const [row] = await filling.query<{ id: string; requested_at: string | number }>(
        `select id, requested_at from approval_gates where workspace_id = $1 and status = 'pending'
         order by requested_at desc, id desc offset ${PAGE} limit 1`,
        [place.workspaceId],
      );
      deepCursor = encodeCursor({
        bind: `approvals:${place.workspaceId}:pending::`,
        value: Number(row!.requested_at),
        id: row!.id,
      });
    } finally {
      await filling.close();
    }
    const seedSeconds = (performance.now() - started) / 1000;
    server = await startApi(db, `API approvals inbox (${database})`, options);
    try {
      progress(`${database}: inbox first page and deepest page, ${options.pageSamples} samples each`);
      const others = othersMeter([server.child.pid]);
      const pages = await inboxPages(server.baseUrl, place, db.apiKey, deepCursor, options.pageSamples);
      inbox = { depth: options.inboxDepth, seedSeconds, ...pages, othersCpu: others() };
    } finally {
      await stopProcess(server.child);
    }
  }
  return { database, wake: wakeFigures, distinct, contended, inbox };
}

const mark = (ok: boolean) => (ok ? "met" : "MISSED");
const f1 = (value: number) => value.toFixed(1);
const whole = (value: number) => Math.round(value).toLocaleString("en-US");
const othersNote = (share: number | undefined) =>
  share === undefined ? "" : `; others' CPU ${(share * 100).toFixed(0)}%`;

function approverLine(label: string, run: ApproverRun): string {
  return (
    `  ${label}: ${whole(run.decisionsPerSecond)} decisions/s, ${whole(run.requestsPerSecond)} answers/s ` +
    `(${whole(run.requests)} answers), p50 ${f1(run.p50)} ms, p99 ${f1(run.p99)} ms, max ${f1(run.max)} ms; ` +
    `gates without exactly one 200: ${run.wrongWinners}, answers neither 200 nor 409: ${run.errors}` +
    (run.cpuUsPerAnswer === undefined ? "" : `; server CPU ${whole(run.cpuUsPerAnswer)} µs/answer`) +
    othersNote(run.othersCpu)
  );
}

export function printApprovalFigures(figures: ApprovalFigures): void {
  const { wake, inbox } = figures;
  console.log(`\nApproval gates (issue #14), ${figures.database}`);
  console.log(
    `  decision → waiting runner woken (${wake.samples} samples): p50 ${f1(wake.p50)} ms, p99 ${f1(wake.p99)} ms, max ${f1(wake.max)} ms` +
      ` (the approve request itself: p50 ${f1(wake.approve.p50)} ms, p99 ${f1(wake.approve.p99)} ms; wrong answers ${wake.wrong}${othersNote(wake.othersCpu)})` +
      `  [target p99 ≤ 100 ms: ${mark(wake.p99 <= 100)}]`,
  );
  console.log(
    approverLine(
      `${APPROVERS} approvers on ${DISTINCT_GATES} pending gates, each answered once`,
      figures.distinct,
    ),
  );
  console.log(
    approverLine(
      `${APPROVERS} approvers all walking ${CONTENDED_GATES} gates oldest-first (raced)`,
      figures.contended,
    ),
  );
  if (typeof inbox === "string") {
    console.log(`  inbox: ${inbox}`);
    return;
  }
  const ratio = inbox.deep.p50 / inbox.first.p50;
  console.log(
    `  GET …/approvals?limit=${PAGE} at ${whole(inbox.depth)} pending gates (seeded in ${f1(inbox.seedSeconds)} s), ${inbox.first.samples} samples each, alternating${othersNote(inbox.othersCpu)}:`,
  );
  console.log(`    first page: p50 ${f1(inbox.first.p50)} ms, p99 ${f1(inbox.first.p99)} ms`);
  console.log(
    `    deepest page (the last ${inbox.deepItems}): p50 ${f1(inbox.deep.p50)} ms, p99 ${f1(inbox.deep.p99)} ms` +
      `  (deepest ÷ first p50 ${ratio.toFixed(2)}×, p99 ${(inbox.deep.p99 / inbox.first.p99).toFixed(2)}×) [target ≤ 1.5×: ${mark(ratio <= 1.5)}]`,
  );
}
