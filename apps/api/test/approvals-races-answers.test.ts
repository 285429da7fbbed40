import { describe, expect, it } from "vitest";
import { leasedFleet } from "./approval-fixtures.ts";
import {
  type Answer,
  answerAt,
  approversOf,
  auditCounts,
  expectOneWinner,
  gateNotifications,
  openGates,
  rowsOf,
  useRaceApi,
} from "./approval-race-fixtures.ts";
import { callAt, databaseKind, seedMember, seedTenant, sleep } from "./harness.ts";

// The first answer wins, under load (see approval-race-fixtures.ts): every gate ends in exactly one outcome.

const raceApi = useRaceApi();

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
