import { afterAll, beforeAll, describe, expect, it } from "vitest";
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
  ownerKey,
  patient,
  rowsOf,
  useRaceApi,
} from "./approval-race-fixtures.ts";
import { databaseKind, seedTenant, sleep, startApi, type TestApi } from "./harness.ts";

// The first answer wins, under load (see approval-race-fixtures.ts): every gate ends in exactly one outcome.

const raceApi = useRaceApi();

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
