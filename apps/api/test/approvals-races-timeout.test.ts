import { describe, expect, it } from "vitest";
import { sweepOverdueGates } from "../src/services/approvals/sweep.ts";
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
import { databaseKind, seedTenant, sleep } from "./harness.ts";

// The first answer wins, under load (see approval-race-fixtures.ts): every gate ends in exactly one outcome.

const raceApi = useRaceApi();

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
