import { request } from "node:http";
import { openDatabase } from "@fleet/db";
import { afterAll, expect } from "vitest";
import { GATE_CHANNEL } from "../src/runtime/gate-signal.ts";
import { type LeasedFleet, openGate } from "./approval-fixtures.ts";
import {
  databaseKind,
  type Response,
  seedMember,
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

/** Who answers: a person with `approval:resolve`, or the tenant's API key. */
export interface Approver {
  token: string;
  /** `resolved_by` for their answers, when it is known in advance (a person's user id). */
  resolvedBy: string | RegExp;
}

export interface GateRow {
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

export interface Answer {
  /** Which approver sent it, and the reason and amendment it carried (unique per request). */
  by: Approver;
  verb: "approve" | "deny";
  reason: string;
  amended: string | null;
  response: Response;
}

/** The row as stored, read with SQL on the instance's own handle (bigints as numbers). */
export async function rowsOf(api: TestApi, ids: string[]): Promise<Map<string, GateRow>> {
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
export async function auditCounts(api: TestApi, ids: string[]): Promise<Map<string, number>> {
  const rows = await api.database.query<{ target: string; n: string | number }>(
    `select target, count(*) as n from audit_events where target = any($1::text[]) group by target`,
    [ids.map((id) => `approval_gate:${id}`)],
  );
  return new Map(rows.map((row) => [row.target.slice("approval_gate:".length), Number(row.n)]));
}

export function answerAt(
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
export async function approversOf(owner: Tenant): Promise<Approver[]> {
  const people = await Promise.all(
    [0, 1, 2].map(() => seedMember(owner, ["approval:resolve", "approval:read"])),
  );
  return [
    { token: owner.apiKey, resolvedBy: /^api_key:[0-9a-f-]{36}$/ },
    ...people.map((person) => ({ token: person.token, resolvedBy: `user:${person.userId}` })),
  ];
}

/** Opens `count` gates through the runner route; `timeoutFor(i)` picks each one's timeout_ms. */
export async function openGates(leased: LeasedFleet, count: number, timeoutFor?: (i: number) => number) {
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
export function expectOneWinner(gateId: string, answers: Answer[], row: GateRow | undefined, audits: number) {
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
export async function gateNotifications(api: TestApi) {
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

/** The owner's API key as an approver. */
export function ownerKey(owner: Tenant): Approver {
  return { token: owner.apiKey, resolvedBy: /^api_key:/ };
}

/**
 * On PostgreSQL the races run on an instance of their own whose requests wait up to 30 s for a pool
 * connection and a statement (the harness's 2 s and 5 s): an answer holds a connection while it queues on
 * its gate's row lock, and on a starved machine twenty answers to a gate outlast 2 s, which would read as
 * 503s, a capacity refusal rather than a lost race. PGlite has one connection and no pool wait.
 */
export const patient = { FLEET_DB_CONNECT_TIMEOUT_MS: "30000", FLEET_DB_STATEMENT_TIMEOUT_MS: "30000" };

/**
 * The calling file's instance for the races (see `patient`): the worker's API on PGlite, one of the file's
 * own on PostgreSQL, started at first use and closed after the file.
 */
export function useRaceApi(): () => Promise<TestApi> {
  let own: TestApi | null = null;
  afterAll(async () => {
    await own?.app.close();
    await own?.database.close();
    own = null;
  });
  return async () => {
    if (databaseKind !== "postgres") return testApi();
    own ??= await startApi(patient);
    return own;
  };
}
