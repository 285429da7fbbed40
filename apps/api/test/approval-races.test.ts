import { request } from "node:http";
import { openDatabase } from "@fleet/db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GATE_CHANNEL } from "../src/runtime/gate-signal.ts";
import { sweepOverdueGates } from "../src/services/approvals/sweep.ts";
import { type LeasedFleet, leasedFleet, openGate } from "./approval-fixtures.ts";
import {
  callAt,
  databaseKind,
  type Response,
  seedMember,
  seedTenant,
  startApi,
  type Tenant,
  type TestApi,
  testApi,
} from "./harness.ts";

/**
 * The first answer wins, under load: concurrent answers from several people (and instances), the timeout
 * sweeper on every instance at once, and answers landing on the deadline. Each gate must end in exactly
 * one outcome, written once, and every refused answer must carry the answer that stands.
 */

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Who answers: a person with `approval:resolve`, or the tenant's API key. */
interface Approver {
  token: string;
  /** `resolved_by` for their answers, when it is known in advance (a person's user id). */
  resolvedBy: string | RegExp;
}

interface GateRow {
  id: string;
  action_id: string;
  status: string;
  reason: string | null;
  amended_action: string | null;
  resolved_by: string | null;
  resolved_at: string | number | null;
  timeout_at: string | number;
  updated_at: string | number;
}

interface Answer {
  /** Which approver sent it, and the reason and amendment it carried (unique per request). */
  by: Approver;
  verb: "approve" | "deny";
  reason: string;
  amended: string | null;
  response: Response;
}

/** The row as stored, read with SQL on the instance's own handle (bigints as numbers). */
async function rowsOf(api: TestApi, ids: string[]): Promise<Map<string, GateRow>> {
  const rows = await api.database.query<GateRow>(
    `select id, action_id, status, reason, amended_action, resolved_by, resolved_at, timeout_at, updated_at
     from approval_gates where id = any($1::uuid[])`,
    [ids],
  );
  return new Map(
    rows.map((row) => [
      row.id,
      {
        ...row,
        resolved_at: row.resolved_at === null ? null : Number(row.resolved_at),
        timeout_at: Number(row.timeout_at),
        updated_at: Number(row.updated_at),
      },
    ]),
  );
}

/** How many audit rows each gate's answers wrote (one per decision that was written). */
async function auditCounts(api: TestApi, ids: string[]): Promise<Map<string, number>> {
  const rows = await api.database.query<{ target: string; n: string | number }>(
    `select target, count(*) as n from audit_events where target = any($1::text[]) group by target`,
    [ids.map((id) => `approval_gate:${id}`)],
  );
  return new Map(rows.map((row) => [row.target.slice("approval_gate:".length), Number(row.n)]));
}

function answerAt(
  baseUrl: string,
  owner: Tenant,
  gateId: string,
  by: Approver,
  verb: "approve" | "deny",
  tag: string,
  amend = true,
): Promise<Answer> {
  const reason = `reason ${tag}`;
  // An amended action is a one-approver rule's: a quorum approves the action as proposed.
  const amended = verb === "approve" && amend ? `amended ${tag}` : null;
  const body = amended === null ? { reason } : { reason, amended_action: amended };
  return post(
    baseUrl,
    `/v1/workspaces/${owner.workspaceId}/approvals/${gateId}/${verb}`,
    by.token,
    body,
  ).then((response) => ({ by, verb, reason, amended, response }));
}

/**
 * A POST on a connection of its own. The answers go out in bursts of up to eighty; on fetch's shared
 * keep-alive pool a socket left idle through a slow burst could be reused just as the server (in this same,
 * starved process on PGlite) closed it after its 5 s keep-alive, failing the request with ECONNRESET.
 */
function post(baseUrl: string, path: string, token: string, body: unknown): Promise<Response> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const sent = request(
      `${baseUrl}${path}`,
      {
        method: "POST",
        agent: false,
        headers: {
          authorization: `Bearer ${token}`,
          "content-type": "application/json",
          "content-length": Buffer.byteLength(payload),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("error", reject);
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          const headers = new Headers();
          for (const [name, value] of Object.entries(res.headers)) {
            if (typeof value === "string") headers.set(name, value);
          }
          let parsed: Record<string, unknown> = {};
          try {
            parsed = JSON.parse(text) as Record<string, unknown>;
          } catch {
            parsed = {};
          }
          resolve({ status: res.statusCode ?? 0, headers, body: parsed, text });
        });
      },
    );
    sent.on("error", reject);
    sent.end(payload);
  });
}

/** The tenant's owner key and three people, each allowed to answer. */
async function approversOf(owner: Tenant): Promise<Approver[]> {
  const people = await Promise.all(
    [0, 1, 2].map(() => seedMember(owner, ["approval:resolve", "approval:read"])),
  );
  return [
    { token: owner.apiKey, resolvedBy: /^api_key:[0-9a-f-]{36}$/ },
    ...people.map((person) => ({ token: person.token, resolvedBy: `user:${person.userId}` })),
  ];
}

/** Opens `count` gates through the runner route; `timeoutFor(i)` picks each one's timeout_ms. */
async function openGates(leased: LeasedFleet, count: number, timeoutFor?: (i: number) => number) {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const opened = await openGate(leased, timeoutFor === undefined ? {} : { timeout_ms: timeoutFor(i) });
    expect(opened.status, opened.text).toBe(201);
    ids.push(opened.body.gate_id);
  }
  return ids;
}

/**
 * One gate's answers: exactly one 200, every other a 409 carrying the winner's standing answer, the row
 * holding exactly what the winning request sent (its reason and amendment, no mix of two), and one audit
 * row for it.
 */
function expectOneWinner(gateId: string, answers: Answer[], row: GateRow | undefined, audits: number) {
  const statuses = answers.map((a) => `${a.response.status} ${a.response.body?.error_code ?? ""}`).join(", ");
  const won = answers.filter((a) => a.response.status === 200);
  expect(won, statuses).toHaveLength(1);
  expect(
    answers.filter((a) => a.response.status === 409),
    statuses,
  ).toHaveLength(answers.length - 1);
  const winner = won[0]!;
  const standing = winner.response.body;
  expect(standing).toMatchObject({
    gate_id: gateId,
    outcome: winner.verb === "approve" ? "approved" : "denied",
    resolved_by: winner.by.resolvedBy,
  });
  expect(typeof standing.resolved_at).toBe("number");
  for (const loser of answers) {
    if (loser === winner) continue;
    expect(loser.response.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    expect(loser.response.body).toMatchObject({
      error_code: "UZ-APPROVAL-006",
      gate_id: gateId,
      action_id: standing.action_id,
      outcome: standing.outcome,
      resolved_at: standing.resolved_at,
      resolved_by: standing.resolved_by,
      current_state: standing.outcome,
    });
  }
  expect(row).toMatchObject({
    action_id: standing.action_id,
    status: standing.outcome,
    resolved_by: standing.resolved_by,
    resolved_at: standing.resolved_at,
    reason: winner.reason,
    amended_action: winner.amended,
  });
  expect(audits, `audit rows for ${gateId}`).toBe(1);
}

/**
 * Every NOTIFY on the gate channel, counted by gate, from a connection of the test's own (PostgreSQL) or
 * the API's in-process database (PGlite). A gate's change is announced in the transaction that makes it;
 * NOTIFY folds duplicates only within one transaction, so a gate closed twice would be heard twice.
 */
async function gateNotifications(api: TestApi) {
  const heard = new Map<string, number>();
  const handle = databaseKind === "postgres" ? await openDatabase(api.config.databaseUrl, { max: 1 }) : null;
  const unlisten = await (handle ?? api.database).listen(GATE_CHANNEL, (id) =>
    heard.set(id, (heard.get(id) ?? 0) + 1),
  );
  return {
    heard,
    stop: async () => {
      await unlisten();
      await handle?.close();
    },
  };
}

/**
 * On PostgreSQL the races run on an instance of their own whose requests wait up to 30 s for a pool
 * connection and a statement (the harness's 2 s and 5 s): an answer holds a connection while it queues on
 * its gate's row lock, and on a starved machine twenty answers to a gate outlast 2 s, which would read as
 * 503s, a capacity refusal rather than a lost race. PGlite has one connection and no pool wait.
 */
const patient = { FLEET_DB_CONNECT_TIMEOUT_MS: "30000", FLEET_DB_STATEMENT_TIMEOUT_MS: "30000" };
let own: TestApi | null = null;

async function raceApi(): Promise<TestApi> {
  if (databaseKind !== "postgres") return testApi();
  own ??= await startApi(patient);
  return own;
}

afterAll(async () => {
  await own?.app.close();
  await own?.database.close();
  own = null;
});

describe("first answer wins under concurrent answers", () => {
  // 100 × 20 on PostgreSQL. PGlite runs one statement at a time, so more gates prove nothing more there:
  // it takes 30 (the 2,000 answers took 14-160 s on a shared two-core machine).
  const gateCount = databaseKind === "postgres" ? 100 : 30;
  it(`${gateCount} gates × 20 concurrent answers from four principals: one 200, nineteen 409s with the standing answer`, {
    timeout: 240_000,
  }, async () => {
    const api = await raceApi();
    const owner = await seedTenant();
    const approvers = await approversOf(owner);
    const leased = await leasedFleet(owner);
    const ids = await openGates(leased, gateCount);
    // Twenty answers race on each gate, a few gates at a time: the test API's pool holds five
    // connections, an answer holds one while it queues on the gate's row lock, and a request waits at
    // most the connect timeout (2 s) for one. PGlite runs one statement at a time whatever the count.
    const inFlight = databaseKind === "postgres" ? 2 : 4;
    const started = Date.now();
    const answersOf = new Map<string, Answer[]>();
    for (let at = 0; at < ids.length; at += inFlight) {
      await Promise.all(
        ids.slice(at, at + inFlight).map(async (gateId, g) => {
          const answers = await Promise.all(
            Array.from({ length: 20 }, (_, i) =>
              answerAt(
                api.baseUrl,
                owner,
                gateId,
                approvers[(i + g) % approvers.length]!,
                (i + at) % 3 === 0 ? "deny" : "approve",
                `${gateId}#${i}`,
              ),
            ),
          );
          answersOf.set(gateId, answers);
        }),
      );
    }
    const tookMs = Date.now() - started;
    const rows = await rowsOf(api, ids);
    const audits = await auditCounts(api, ids);
    const outcomes = new Map<string, number>();
    for (const id of ids) {
      expectOneWinner(id, answersOf.get(id)!, rows.get(id), audits.get(id) ?? 0);
      const outcome = rows.get(id)!.status;
      outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
    }
    // Both verbs won somewhere: the race is between approve and deny, not among equal answers.
    expect(outcomes.get("approved") ?? 0).toBeGreaterThan(0);
    expect(outcomes.get("denied") ?? 0).toBeGreaterThan(0);
    console.info(
      `${databaseKind}: 2,000 answers in ${tookMs} ms; outcomes ${JSON.stringify(Object.fromEntries(outcomes))}`,
    );
  });
});

// Instances see each other's writes only through the shared PostgreSQL: PGlite is one process's database.
describe.runIf(databaseKind === "postgres")("two API instances on one PostgreSQL", () => {
  let first: TestApi;
  let second: TestApi;
  beforeAll(async () => {
    first = await raceApi();
    second = await startApi({ ...patient, DATABASE_URL: first.config.databaseUrl });
  });
  afterAll(async () => {
    await second?.app.close();
    await second?.database.close();
  });

  it("answering the same gates through both instances: one winner per gate", {
    timeout: 60_000,
  }, async () => {
    const owner = await seedTenant();
    const approvers = await approversOf(owner);
    const leased = await leasedFleet(owner);
    const ids = await openGates(leased, 20);
    const answersOf = new Map<string, Answer[]>();
    for (let at = 0; at < ids.length; at += 2) {
      await Promise.all(
        ids.slice(at, at + 2).map(async (gateId) => {
          const answers = await Promise.all(
            Array.from({ length: 20 }, (_, i) =>
              answerAt(
                (i % 2 === 0 ? first : second).baseUrl,
                owner,
                gateId,
                approvers[Math.floor(i / 2) % approvers.length]!,
                i % 4 < 2 ? "approve" : "deny",
                `${gateId}#${i}`,
              ),
            ),
          );
          answersOf.set(gateId, answers);
        }),
      );
    }
    const rows = await rowsOf(first, ids);
    const audits = await auditCounts(first, ids);
    const winners = new Map<string, number>();
    for (const id of ids) {
      const answers = answersOf.get(id)!;
      expectOneWinner(id, answers, rows.get(id), audits.get(id) ?? 0);
      const via = answers.findIndex((a) => a.response.status === 200) % 2 === 0 ? "first" : "second";
      winners.set(via, (winners.get(via) ?? 0) + 1);
    }
    console.info(`winning instance: ${JSON.stringify(Object.fromEntries(winners))}`);
  });

  it("the sweepers of both instances time each gate out exactly once, at its deadline", {
    timeout: 60_000,
  }, async () => {
    const owner = await seedTenant();
    const leased = await leasedFleet(owner);
    const listening = await gateNotifications(first);
    try {
      // Forty gates that fall due together, about 2.5 s from now.
      const dueAt = Date.now() + 2_500;
      const ids = await openGates(leased, 40, () => Math.max(1_000, dueAt - Date.now()));
      await sleep(Math.max(0, dueAt - Date.now() + 20));
      // Both instances sweep at once, repeatedly, while their own pg-boss sweeper (every 2 s) runs too.
      const passes = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          sleep((i >> 1) * 15).then(() => sweepOverdueGates((i % 2 === 0 ? first : second).app.services)),
        ),
      );
      let rows = await rowsOf(first, ids);
      for (let waited = 0; waited < 8_000 && [...rows.values()].some((r) => r.status === "pending"); ) {
        await sleep(250);
        waited += 250;
        rows = await rowsOf(first, ids);
      }
      // NOTIFY is delivered at commit; give the side connection a moment to read the last ones.
      await sleep(300);
      for (const id of ids) {
        const row = rows.get(id)!;
        expect(row).toMatchObject({ status: "timed_out", resolved_by: "system:timeout" });
        expect(row.resolved_at).toBe(row.timeout_at);
        expect(listening.heard.get(id) ?? 0, `NOTIFYs for gate ${id}`).toBe(1);
      }
      expect(passes.reduce((sum, swept) => sum + swept, 0)).toBeLessThanOrEqual(ids.length);
      // The refusal of a late answer names the timeout, on either instance.
      for (const [i, api] of [first, second].entries()) {
        const late = await answerAt(api.baseUrl, owner, ids[i]!, ownerKey(owner), "approve", `late ${i}`);
        expect(late.response.status).toBe(409);
        expect(late.response.body).toMatchObject({
          error_code: "UZ-APPROVAL-003",
          outcome: "timed_out",
          resolved_by: "system:timeout",
          resolved_at: rows.get(ids[i]!)!.timeout_at,
        });
      }
    } finally {
      await listening.stop();
    }
  });
});

/** The owner's API key as an approver. */
function ownerKey(owner: Tenant): Approver {
  return { token: owner.apiKey, resolvedBy: /^api_key:/ };
}

describe("a decision racing the timeout", () => {
  it("ends each gate approved with one 200, or timed_out with every answer refused UZ-APPROVAL-003", {
    timeout: 120_000,
  }, async () => {
    const api = await raceApi();
    const owner = await seedTenant();
    const approvers = await approversOf(owner);
    const leased = await leasedFleet(owner);
    const listening = await gateNotifications(api);
    try {
      const gates = 20;
      // Every gate falls due together; gate i's answers are fired from (i - 10) × 40 ms around the
      // deadline, three of them 8 ms apart, while the sweeper runs: the early gates should mostly be
      // approved, the late ones timed out, the middle ones are the race.
      const dueAt = Date.now() + 2_000;
      const ids = await openGates(leased, gates, () => Math.max(1_000, dueAt - Date.now()));
      const rowsBefore = await rowsOf(api, ids);
      const deadline = Math.min(...[...rowsBefore.values()].map((r) => Number(r.timeout_at)));
      const answersOf = new Map<string, Answer[]>();
      const sweeps = Promise.all(
        [-20, 0, 5, 15, 40].map((offset) =>
          sleep(Math.max(0, deadline + offset - Date.now())).then(() => sweepOverdueGates(api.app.services)),
        ),
      );
      await Promise.all(
        ids.flatMap((gateId, i) => {
          const own = Number(rowsBefore.get(gateId)!.timeout_at);
          return [0, 1, 2].map((k) =>
            sleep(Math.max(0, own + (i - gates / 2) * 40 + k * 8 - Date.now()))
              .then(() =>
                answerAt(
                  api.baseUrl,
                  owner,
                  gateId,
                  approvers[(i + k) % approvers.length]!,
                  "approve",
                  `${i}/${k}`,
                ),
              )
              .then((answer) => answersOf.set(gateId, [...(answersOf.get(gateId) ?? []), answer])),
          );
        }),
      );
      await sweeps;
      const rows = await rowsOf(api, ids);
      const audits = await auditCounts(api, ids);
      await sleep(200);
      const outcomes = { approved: 0, timed_out: 0 };
      for (const id of ids) {
        const row = rows.get(id)!;
        const answers = answersOf.get(id)!;
        expect(answers).toHaveLength(3);
        expect(["approved", "timed_out"]).toContain(row.status);
        outcomes[row.status as keyof typeof outcomes]++;
        if (row.status === "approved") {
          expectOneWinner(id, answers, row, audits.get(id) ?? 0);
          expect(row.resolved_at as number).toBeLessThan(row.timeout_at as number);
        } else {
          expect(row).toMatchObject({
            resolved_by: "system:timeout",
            resolved_at: row.timeout_at,
            reason: null,
          });
          for (const answer of answers) {
            expect(answer.response.status, answer.response.text).toBe(409);
            expect(answer.response.body).toMatchObject({
              error_code: "UZ-APPROVAL-003",
              gate_id: id,
              outcome: "timed_out",
              current_state: "timed_out",
              resolved_by: "system:timeout",
              resolved_at: row.timeout_at,
            });
          }
          expect(audits.get(id) ?? 0).toBe(0);
        }
        // Closed once, whichever way: one NOTIFY from the one transaction that closed it.
        expect(listening.heard.get(id) ?? 0, `NOTIFYs for gate ${id}`).toBe(1);
      }
      console.info(`${databaseKind}: answers around the deadline ended ${JSON.stringify(outcomes)}`);
    } finally {
      await listening.stop();
    }
  });
});

describe("a 2-of-3 rule under concurrent answers", () => {
  it("decides each gate exactly once, never counting one person twice (sessions and their own API keys)", {
    timeout: 120_000,
  }, async () => {
    const api = await raceApi();
    const owner = await seedTenant();
    const people = await Promise.all(
      [0, 1, 2].map(() => seedMember(owner, ["approval:resolve", "approval:read", "apikey:write"])),
    );
    // Each person answers through their session and through an API key of their own: both are them.
    const credentials = await Promise.all(
      people.map(async (person, p) => {
        const minted = await callAt<{ key: string }>(api.baseUrl, "POST", "/v1/api-keys", {
          token: person.token,
          body: { key_name: `approver ${p}` },
        });
        expect(minted.status, minted.text).toBe(201);
        return [person.token, minted.body.key];
      }),
    );
    const policy = await callAt(api.baseUrl, "PUT", `/v1/workspaces/${owner.workspaceId}/approval-policy`, {
      token: owner.apiKey,
      body: {
        rules: [
          {
            name: "two of three",
            match: {},
            approvers: people.map((person) => person.userId),
            required_approvals: 2,
          },
        ],
        escalation_webhook_url: null,
      },
    });
    expect(policy.status, policy.text).toBe(200);
    const leased = await leasedFleet(owner);
    const gates = 12;
    const ids = await openGates(leased, gates);
    const listening = await gateNotifications(api);
    try {
      const answersOf = new Map<string, { person: number; answer: Answer }[]>();
      // Two gates at a time: each answer holds a pool connection (of five) while it queues on the gate's lock.
      for (let at = 0; at < ids.length; at += 2) {
        await Promise.all(
          ids.slice(at, at + 2).map(async (gateId, g) => {
            // Nine answers at once: each person twice through the session, once through the key. On every
            // third gate the third person denies instead, sending first (so the denial can come before,
            // between or after the approvals); elsewhere who sends first rotates.
            const n = at + g;
            const denies = n % 3 === 2;
            const order = denies ? [2, 0, 1] : [n % 3, (n + 1) % 3, (n + 2) % 3];
            const sent = order.flatMap((p) =>
              [0, 0, 1].map((c, k) => ({ p, token: credentials[p]![c]!, k })),
            );
            const answers = await Promise.all(
              sent.map(({ p, token, k }) =>
                answerAt(
                  api.baseUrl,
                  owner,
                  gateId,
                  { token, resolvedBy: /./ },
                  denies && p === 2 ? "deny" : "approve",
                  `${gateId}/${p}/${k}`,
                  false,
                ).then((answer) => ({ person: p, answer })),
              ),
            );
            answersOf.set(gateId, answers);
          }),
        );
      }
      const rows = await rowsOf(api, ids);
      const audits = await auditCounts(api, ids);
      const votes = await api.database.query<{ gate_id: string; voter_id: string; outcome: string }>(
        "select gate_id, voter_id, outcome from approval_votes where gate_id = any($1::uuid[])",
        [ids],
      );
      await sleep(200);
      const outcomes = { approved: 0, denied: 0 };
      for (const id of ids) {
        const row = rows.get(id)!;
        const answers = answersOf.get(id)!;
        const statuses = answers
          .map(
            ({ person, answer: a }) =>
              `${person}:${a.response.status} ${a.response.body?.error_code ?? a.response.body?.outcome}`,
          )
          .join(", ");
        expect(["approved", "denied"], statuses).toContain(row.status);
        outcomes[row.status as keyof typeof outcomes]++;
        const ok = answers.filter(({ answer: a }) => a.response.status === 200);
        const deciding = ok.filter(({ answer: a }) => a.response.body.outcome !== "pending");
        expect(deciding, statuses).toHaveLength(1);
        expect(deciding[0]!.answer.response.body).toMatchObject({
          outcome: row.status,
          resolved_at: row.resolved_at,
        });
        // Before the decision at most one approval was counted (a second distinct one decides).
        expect(ok.length - deciding.length, statuses).toBeLessThanOrEqual(1);
        for (const { answer: a } of answers) {
          if (a.response.status === 200) continue;
          expect(a.response.status, statuses).toBe(409);
          expect(["UZ-APPROVAL-006", "UZ-APPROVAL-008"], statuses).toContain(a.response.body.error_code);
        }
        const approvedBy = votes
          .filter((v) => v.gate_id === id && v.outcome === "approved")
          .map((v) => v.voter_id);
        expect(new Set(approvedBy).size, statuses).toBe(approvedBy.length);
        if (row.status === "approved") {
          // Two different people, as the decision reports them, and no one else.
          expect(approvedBy).toHaveLength(2);
          const listed = (deciding[0]!.answer.response.body.approvals as { user_id: string }[]).map(
            (a) => a.user_id,
          );
          expect(new Set(listed)).toEqual(new Set(approvedBy));
          expect(deciding[0]!.answer.verb).toBe("approve");
        } else {
          expect(approvedBy.length).toBeLessThanOrEqual(1);
          expect(deciding[0]!.answer.verb).toBe("deny");
        }
        // Every 200 wrote one audit row (a counted approval, or the decision); every 409 none.
        expect(audits.get(id) ?? 0, statuses).toBe(ok.length);
        expect(listening.heard.get(id) ?? 0, `NOTIFYs for gate ${id}`).toBe(1);
      }
      expect(outcomes.approved).toBeGreaterThan(0);
      console.info(`${databaseKind}: 2-of-3 gates ended ${JSON.stringify(outcomes)}`);
    } finally {
      await listening.stop();
    }
  });
});
