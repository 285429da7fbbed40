import { describe, expect, it } from "vitest";
import { billingOf, chargesOf, setBudget } from "./billing-fixtures.ts";
import { call } from "./harness.ts";
import {
  apiLogs,
  CANARY_KEY,
  chat,
  expectSpend,
  gatewayRun,
  MODEL,
  priceOf,
  streamCall,
  useModelVendor,
} from "./model-gateway-fixtures.ts";
import { report } from "./runner-fixtures.ts";

const vendor = useModelVendor();

describe("the model gateway, unstreamed (OpenAI wire)", () => {
  it("relays the vendor's completion for the resolved model, the key sent to the vendor only", async () => {
    const run = await gatewayRun();
    vendor().script({ kind: "answer", text: "Hi there." });
    const before = vendor().calls.length;
    const answer = await chat(run);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.headers.get("content-type")).toContain("application/json");
    expect(answer.body.object).toBe("chat.completion");
    const choices = answer.body.choices as { message: { content: string } }[];
    expect(choices[0]!.message.content).toBe("Hi there.");
    const sent = vendor().calls.slice(before);
    expect(sent).toHaveLength(1);
    // The request's own model is ignored: the tenant's is sent.
    expect((sent[0]!.body as { model: string }).model).toBe(MODEL);
    expect(sent[0]!.headers.authorization).toBe(`Bearer ${CANARY_KEY}`);
    expect(answer.text).not.toContain(CANARY_KEY);
  });

  it("meters the vendor's usage at the catalogue's price, charged once", async () => {
    const run = await gatewayRun();
    const usage = { input: 1200, output: 345, cached: 200 };
    vendor().script({ kind: "answer", usage }, { kind: "answer", usage });
    expect((await chat(run)).status).toBe(200);
    expect((await chat(run)).status).toBe(200);
    const cost = priceOf(usage) * 2;
    const spent = (await billingOf(run.tenant)).body.fleets.find((f) => f.fleet_id === run.fleetId);
    expect(spent?.period_spend_nanos).toBe(cost);
    // The report adds no cost of its own: the charge row and the event show the gateway's, billed once.
    const reported = await report(run.runner, run.lease);
    expect(reported.status, reported.text).toBe(200);
    const after = await billingOf(run.tenant);
    expect(after.body.fleets.find((f) => f.fleet_id === run.fleetId)?.period_spend_nanos).toBe(cost);
    expect(after.body.spend_this_period_nanos).toBe(cost);
    const charges = await chargesOf(run.tenant, `?fleet_id=${run.fleetId}`);
    expect(charges.status, charges.text).toBe(200);
    expect(charges.body.items.map((c) => c.cost_nanos)).toEqual([cost]);
    const event = await call<{ cost_nanos: number | null }>(
      "GET",
      `/v1/workspaces/${run.tenant.workspaceId}/fleets/${run.fleetId}/events/${run.lease.event_id}`,
      { token: run.tenant.apiKey },
    );
    expect(event.body.cost_nanos).toBe(cost);
  });

  it("refuses a superseded or ended holder with 409 UZ-RUN-005 before the vendor sees anything", async () => {
    const run = await gatewayRun();
    const before = vendor().calls.length;
    const stale = await chat(run, {}, run.lease.fencing_token + 1);
    expect(stale.status, stale.text).toBe(409);
    expect(stale.body.error_code).toBe("UZ-RUN-005");
    // Another runner naming this lease (and its token) holds nothing: 404, as for any fenced write.
    const other = await gatewayRun();
    const foreign = await chat({ ...other, lease: run.lease });
    expect(foreign.status, foreign.text).toBe(404);
    expect(foreign.body.error_code).toBe("UZ-RUN-001");
    expect((await report(run.runner, run.lease)).status).toBe(200);
    const ended = await chat(run);
    expect(ended.status, ended.text).toBe(409);
    expect(ended.body.error_code).toBe("UZ-RUN-005");
    expect(vendor().calls.length).toBe(before);
    const unfenced = await call(
      "POST",
      `/v1/runners/me/leases/${run.lease.lease_id}/model/chat/completions`,
      {
        token: run.runner.token,
        body: { messages: [] },
      },
    );
    expect(unfenced.status, unfenced.text).toBe(400);
  });

  it("refuses a run over its budget with 409 UZ-BUDGET-001 before forwarding", async () => {
    const run = await gatewayRun();
    await setBudget(run.tenant, run.fleetId, { run_budget_nanos: 1 });
    expect((await chat(run)).status).toBe(200);
    const before = vendor().calls.length;
    const over = await chat(run);
    expect(over.status, over.text).toBe(409);
    expect(over.body.error_code).toBe("UZ-BUDGET-001");
    expect(vendor().calls.length).toBe(before);
    // Renew refuses the same way.
    const renew = await call("POST", `/v1/runners/me/leases/${run.lease.lease_id}/renew`, {
      token: run.runner.token,
      body: { fencing_token: run.lease.fencing_token },
    });
    expect(renew.status, renew.text).toBe(409);
  });

  it("caps the body at 1 MiB: 413 UZ-REQ-006, nothing forwarded", async () => {
    const run = await gatewayRun();
    const before = vendor().calls.length;
    const big = await chat(run, { messages: [{ role: "user", content: "x".repeat(1024 * 1024) }] });
    expect(big.status, big.text.slice(0, 200)).toBe(413);
    expect(big.body.error_code).toBe("UZ-REQ-006");
    expect(vendor().calls.length).toBe(before);
  });

  it("answers 409 UZ-MODEL-001 when neither the tenant nor the platform has a provider", async () => {
    const run = await gatewayRun(null);
    const before = vendor().calls.length;
    const none = await chat(run);
    expect(none.status, none.text).toBe(409);
    expect(none.body.error_code).toBe("UZ-MODEL-001");
    expect(vendor().calls.length).toBe(before);
  });

  it("lists the lease's one model in OpenAI's shape", async () => {
    const run = await gatewayRun();
    const listed = await call("GET", `/v1/runners/me/leases/${run.lease.lease_id}/model/models`, {
      token: run.runner.token,
    });
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body).toEqual({
      object: "list",
      data: [{ id: MODEL, object: "model", created: 0, owned_by: "openai" }],
    });
    const other = await gatewayRun();
    const foreign = await call("GET", `/v1/runners/me/leases/${run.lease.lease_id}/model/models`, {
      token: other.runner.token,
    });
    expect(foreign.status).toBe(404);
  });

  it("charges calls that end at once on several runs, each run its own calls, once", async () => {
    // The charges of calls ending in one turn share one statement (meter.ts): sums per lease and fleet.
    const runs = await Promise.all([gatewayRun(), gatewayRun(), gatewayRun()]);
    const usage = { input: 700, output: 90, cached: 100 };
    const counts = [3, 2, 1];
    vendor().script(...Array.from({ length: 6 }, () => ({ kind: "answer" as const, usage })));
    const answers = await Promise.all(
      runs.flatMap((run, i) =>
        Array.from({ length: counts[i]! }, (_, n) =>
          n === 0
            ? streamCall(run).then(({ response, text }) => {
                expect(text.endsWith("data: [DONE]\n\n")).toBe(true);
                return response;
              })
            : chat(run),
        ),
      ),
    );
    for (const answer of answers) expect(answer.status).toBe(200);
    for (const [i, run] of runs.entries()) {
      await expectSpend(run, priceOf(usage) * counts[i]!);
      const reported = await report(run.runner, run.lease);
      expect(reported.status, reported.text).toBe(200);
      const charges = await chargesOf(run.tenant, `?fleet_id=${run.fleetId}`);
      expect(charges.body.items.map((c) => c.cost_nanos)).toEqual([priceOf(usage) * counts[i]!]);
    }
  });

  it("never writes the provider key to the log", async () => {
    expect(await apiLogs()).not.toContain(CANARY_KEY);
  });
});
