import { type FakeModelVendor, modelVendorEnv } from "@fleet/testing/fake-model-vendor";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { chargesOf, setBudget } from "./billing-fixtures.ts";
import { call, callAt, databaseKind, startApi, type TestApi, testApi } from "./harness.ts";
import {
  CANARY_KEY,
  chat,
  chatPath,
  expectSpend,
  type GatewayRun,
  gatewayRun,
  priceOf,
  startStream,
  useModelVendor,
} from "./model-gateway-fixtures.ts";
import { report } from "./runner-fixtures.ts";

const vendor = useModelVendor();

const ASK = { messages: [{ role: "user", content: "hello" }], max_tokens: 1000 };

/** What the gateway reserves for ASK: its body at four characters a token (a little over), and max_tokens. */
function worstCase(): number {
  const sent = { model: "whatever-the-runner-says", ...ASK };
  return priceOf({ input: Math.ceil(JSON.stringify(sent).length / 4) + 16, output: ASK.max_tokens });
}

const eventOf = (run: GatewayRun) =>
  call<{ cost_nanos: number | null }>(
    "GET",
    `/v1/workspaces/${run.tenant.workspaceId}/fleets/${run.fleetId}/events/${run.lease.event_id}`,
    { token: run.tenant.apiKey },
  );

/** A promise the vendor's held answers wait for, and its release. */
function hold(): { held: Promise<void>; release: () => void } {
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { held, release };
}

const renew = (run: GatewayRun) =>
  call("POST", `/v1/runners/me/leases/${run.lease.lease_id}/renew`, {
    token: run.runner.token,
    body: { fencing_token: run.lease.fencing_token },
  });

/** Answers scripts queued for calls that were refused, so the file's next tests get their own. */
async function consumeScripts(v: FakeModelVendor, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const answer = await fetch(`${v.openaiBaseUrl}/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${CANARY_KEY}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "gpt-4o-mini", messages: [{ role: "user", content: "drain" }] }),
    });
    await answer.text();
  }
}

describe("the model gateway's budget reservations", () => {
  it.each(["run_budget_nanos", "period_budget_nanos"])(
    "lets through only the concurrent calls whose worst case the budget covers (%s)",
    async (budget) => {
      const run = await gatewayRun();
      const worst = worstCase();
      // Two calls' worst cases fit whole; the half left over goes to a call only when none is in flight.
      const cap = Math.floor(worst * 2.5);
      await setBudget(run.tenant, run.fleetId, { [budget]: cap });
      const calls = 12;
      const usage = { input: 10, output: ASK.max_tokens };
      vendor().script(
        ...Array.from({ length: calls }, () => ({ kind: "answer" as const, usage, delayMs: 300 })),
      );
      const before = vendor().calls.length;
      const answers = await Promise.all(Array.from({ length: calls }, () => chat(run, ASK)));
      const statuses = answers.map((a) => a.status).join(",");
      const admitted = answers.filter((a) => a.status === 200).length;
      const refused = answers.filter((a) => a.status === 409);
      expect(admitted + refused.length, statuses).toBe(calls);
      for (const answer of refused) expect(answer.body.error_code, answer.text).toBe("UZ-BUDGET-001");
      // The vendor saw exactly the admitted calls: two whole, at most one more alone once they ended.
      expect(vendor().calls.length - before).toBe(admitted);
      expect(admitted, statuses).toBeGreaterThanOrEqual(2);
      expect(admitted, statuses).toBeLessThanOrEqual(3);
      await expectSpend(run, admitted * priceOf(usage));
      expect(admitted * priceOf(usage)).toBeLessThanOrEqual(cap + worst);
      await consumeScripts(vendor(), calls - admitted);
    },
  );

  it("hits the run's cap cleanly with 50 calls at once on one lease", async () => {
    const run = await gatewayRun();
    const worst = worstCase();
    // Five calls' worst cases fit whole (fewer than the 8 calls a lease may have open), half of one is left.
    const cap = Math.floor(worst * 5.5);
    await setBudget(run.tenant, run.fleetId, { run_budget_nanos: cap });
    const calls = 50;
    const usage = { input: 10, output: ASK.max_tokens };
    const { held, release } = hold();
    vendor().script(
      ...Array.from({ length: calls }, () => ({ kind: "answer" as const, usage, holdUntil: held })),
    );
    const before = vendor().calls.length;
    let answered = 0;
    const pending = Array.from({ length: calls }, () =>
      chat(run, ASK).then((answer) => {
        answered++;
        return answer;
      }),
    );
    // The vendor holds every call it was sent until each of the 50 is either there or answered: all of
    // them were in flight at once, none admitted after another ended.
    await vi.waitFor(() => expect(answered + vendor().calls.length - before).toBe(calls), {
      timeout: 60_000,
      interval: 20,
    });
    release();
    const answers = await Promise.all(pending);
    const statuses = answers.map((a) => a.status).join(",");
    for (const answer of answers) {
      expect([200, 409], answer.text).toContain(answer.status);
      if (answer.status === 409) expect(answer.body.error_code, answer.text).toBe("UZ-BUDGET-001");
    }
    const admitted = answers.filter((a) => a.status === 200).length;
    expect(admitted, statuses).toBe(5);
    expect(vendor().calls.length - before).toBe(admitted);
    await expectSpend(run, admitted * priceOf(usage));
    expect(admitted * priceOf(usage)).toBeLessThanOrEqual(cap + worst);
    await consumeScripts(vendor(), calls - admitted);
  });

  it("renews a run whose call in flight holds what is left of its cap: a reservation is not spend", async () => {
    const run = await gatewayRun();
    // The call's worst case does not fit: it is admitted alone and holds the whole cap.
    await setBudget(run.tenant, run.fleetId, { run_budget_nanos: Math.floor(worstCase() / 2) });
    const { held, release } = hold();
    vendor().script({ kind: "answer", usage: { input: 1, output: 1 }, holdUntil: held });
    const before = vendor().calls.length;
    const pending = chat(run, ASK);
    await vi.waitFor(() => expect(vendor().calls.length).toBe(before + 1), { timeout: 60_000, interval: 20 });
    // The call holds the whole cap; a second call is refused, but the run may go on while this one answers.
    const second = await chat(run, ASK);
    expect(second.status, second.text).toBe(409);
    expect(second.body.error_code).toBe("UZ-BUDGET-001");
    const renewed = await renew(run);
    expect(renewed.status, renewed.text).toBe(200);
    release();
    expect((await pending).status).toBe(200);
    // The call ended well under the cap: the renew after it goes through as well.
    const after = await renew(run);
    expect(after.status, after.text).toBe(200);
  });

  it("gives the reservation of a failed call or a broken stream back", async () => {
    const run = await gatewayRun();
    // One call's worst case fits whole: a reservation left behind would refuse the next.
    await setBudget(run.tenant, run.fleetId, { run_budget_nanos: worstCase() + 1 });
    vendor().script({ kind: "status", status: 500 }, { kind: "break", afterChunks: 0 });
    expect((await chat(run, ASK)).status).toBe(502);
    const broken = await startStream(run, ASK);
    expect(broken.status).toBe(200);
    await broken.text();
    // Two calls at once: one is admitted (none was left behind), and holds the budget while it runs.
    vendor().script({ kind: "answer", usage: { input: 1, output: 1 }, delayMs: 300 });
    const pair = await Promise.all([chat(run, ASK), chat(run, ASK)]);
    expect(pair.map((a) => a.status).sort()).toEqual([200, 409]);
    expect(pair.find((a) => a.status === 409)?.body.error_code).toBe("UZ-BUDGET-001");
    expect((await chat(run, ASK)).status).toBe(200);
  });

  it("puts a stream that ends after its runner's report on the event's cost and its charge row", async () => {
    const run = await gatewayRun();
    const usage = { input: 100, output: 20 };
    // The vendor pauses between its two chunks: the report is written meanwhile.
    vendor().script({ kind: "answer", usage, chunks: 2, chunkDelayMs: 2000 });
    const stream = await startStream(run);
    expect(stream.status).toBe(200);
    const reader = stream.body!.getReader();
    await reader.read();
    const reported = await report(run.runner, run.lease);
    expect(reported.status, reported.text).toBe(200);
    expect((await eventOf(run)).body.cost_nanos ?? null).toBeNull();
    while (!(await reader.read()).done) {
      // read to its end: the call is charged before the body ends
    }
    const cost = priceOf(usage);
    await expectSpend(run, cost);
    expect((await eventOf(run)).body.cost_nanos).toBe(cost);
    const charges = await chargesOf(run.tenant, `?fleet_id=${run.fleetId}`);
    expect(charges.body.items.map((c) => c.cost_nanos)).toEqual([cost]);
  });
});

describe.runIf(databaseKind === "postgres")("the model gateway on two instances", () => {
  let second: TestApi | null = null;
  beforeAll(async () => {
    const first = await testApi();
    second = await startApi({ ...modelVendorEnv(vendor()), DATABASE_URL: first.config.databaseUrl });
  }, 60_000);
  afterAll(async () => {
    await second?.app.close();
    await second?.database.close();
  });

  it("charges each call exactly once, whichever instance served it", async () => {
    const run = await gatewayRun();
    const usage = { input: 40, output: 9 };
    const calls = 10;
    vendor().script(...Array.from({ length: calls }, () => ({ kind: "answer" as const, usage })));
    const onSecond = () =>
      callAt(second!.baseUrl, "POST", chatPath(run.lease), {
        token: run.runner.token,
        headers: { "fleet-fencing-token": String(run.lease.fencing_token) },
        body: { model: "x", messages: [{ role: "user", content: "hello" }] },
      });
    const answers = await Promise.all(
      Array.from({ length: calls }, (_, i) => (i % 2 === 0 ? chat(run) : onSecond())),
    );
    expect(
      answers.map((a) => a.status),
      answers.map((a) => a.text).join("\n"),
    ).toEqual(Array.from({ length: calls }, () => 200));
    const cost = calls * priceOf(usage);
    await expectSpend(run, cost);
    expect((await report(run.runner, run.lease)).status).toBe(200);
    await expectSpend(run, cost);
    expect((await eventOf(run)).body.cost_nanos).toBe(cost);
    const charges = await chargesOf(run.tenant, `?fleet_id=${run.fleetId}`);
    expect(charges.body.items.map((c) => c.cost_nanos)).toEqual([cost]);
  });
});
