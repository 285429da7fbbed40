import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import type { OutputOf } from "@fleet/contracts";
import type { creditTenant } from "@fleet/contracts/billing/credit-tenant";
import type { getBilling } from "@fleet/contracts/billing/get-billing";
import type { listCharges } from "@fleet/contracts/billing/list-charges";
import type { updateBudget } from "@fleet/contracts/billing/update-budget";
import type { reportUsage } from "@fleet/contracts/leases/report-usage";
import { budgetAlerts, eq } from "@fleet/db";
import { describe, expect, it } from "vitest";
import { newId } from "../src/runtime/ids.ts";
import { periodOf } from "../src/services/billing/period.ts";
import { verify } from "../src/services/webhooks/signature.ts";
import { labelledFleet, messageFleet, uniqueLabel } from "./fleet-fixtures.ts";
import { call, operatorToken, seedTenant, type Tenant, testApi, useIsolatedApi } from "./harness.ts";
import { acquire, type EnrolledRunner, enrollRunner, type HeldLease, report } from "./runner-fixtures.ts";
import { openStream } from "./stream-fixtures.ts";

type Billing = OutputOf<typeof getBilling>;
type ChargePage = OutputOf<typeof listCharges>;
type Budget = OutputOf<typeof updateBudget>;
type Usage = OutputOf<typeof reportUsage>;

// Runners lease any tenant's work, and alerts go to a local receiver: a database of its own, in dev mode.
useIsolatedApi({ FLEET_DEV_MODE: "true" });

/** A fleet of the tenant's own, a runner for it, and `messages` waiting events. */
async function workingFleet(tenant: Tenant, messages = 1) {
  const label = uniqueLabel();
  const fleetId = await labelledFleet(tenant, label);
  for (let i = 0; i < messages; i++) await messageFleet(tenant, fleetId, `job ${i}`);
  const runner = await enrollRunner({ labels: [label] });
  return { fleetId, runner };
}

async function leaseOne(runner: EnrolledRunner): Promise<HeldLease> {
  const answer = await acquire(runner);
  expect(answer.status, answer.text).toBe(200);
  expect(answer.body.lease, "a lease").not.toBeNull();
  return answer.body.lease!;
}

const budgetPath = (tenant: Tenant, fleetId: string) =>
  `/v1/workspaces/${tenant.workspaceId}/fleets/${fleetId}/budget`;

async function setBudget(tenant: Tenant, fleetId: string, body: Record<string, unknown>) {
  const set = await call<Budget>("PATCH", budgetPath(tenant, fleetId), { token: tenant.apiKey, body });
  expect(set.status, set.text).toBe(200);
  return set.body;
}

function usage(runner: EnrolledRunner, lease: HeldLease, body: Record<string, unknown>) {
  return call<Usage & { error_code?: string }>("POST", `/v1/runners/me/leases/${lease.lease_id}/usage`, {
    token: runner.token,
    body: { fencing_token: lease.fencing_token, ...body },
  });
}

function renew(runner: EnrolledRunner, lease: HeldLease) {
  return call("POST", `/v1/runners/me/leases/${lease.lease_id}/renew`, {
    token: runner.token,
    body: { fencing_token: lease.fencing_token },
  });
}

const billingOf = (tenant: Tenant) =>
  call<Billing>("GET", "/v1/tenants/me/billing", { token: tenant.apiKey });
const chargesOf = (tenant: Tenant, query = "") =>
  call<ChargePage & { error_code?: string }>("GET", `/v1/tenants/me/billing/charges${query}`, {
    token: tenant.apiKey,
  });

async function credit(tenantId: string, body: Record<string, unknown>, token?: string) {
  return call<OutputOf<typeof creditTenant> & { error_code?: string }>(
    "POST",
    `/v1/admin/tenants/${tenantId}/credits`,
    {
      token: token ?? (await operatorToken(["credit:write"])),
      body,
    },
  );
}

/** A catalogue row of the test's own, priced so costs are easy to read. */
async function pricedModel(): Promise<string> {
  const modelId = `billing-model-${newId()}`;
  const created = await call("POST", "/v1/admin/models", {
    token: await operatorToken(["model:admin"]),
    body: {
      provider: "anthropic",
      model_id: modelId,
      context_cap_tokens: 200_000,
      input_nanos_per_mtok: 3_000_000_000,
      cached_input_nanos_per_mtok: 300_000_000,
      output_nanos_per_mtok: 15_000_000_000,
    },
  });
  expect(created.status, created.text).toBe(201);
  return modelId;
}

describe("charges and the balance", () => {
  it("a report writes one charge priced from the catalogue row, debits the balance and counts this period", async () => {
    const tenant = await seedTenant();
    const model = await pricedModel();
    const { fleetId, runner } = await workingFleet(tenant);
    const credited = await credit(tenant.tenantId, { amount_nanos: 1_000_000_000, reference: "inv-1" });
    expect(credited.status, credited.text).toBe(201);
    expect(credited.body.balance_nanos).toBe(1_000_000_000);

    const lease = await leaseOne(runner);
    const done = await report(runner, lease, {
      provider: "anthropic",
      model,
      input_tokens: 10_000,
      cached_tokens: 20_000,
      output_tokens: 1_000,
      tokens: 31_000,
      cost_nanos: 1, // the catalogue's price wins over the runner's
    });
    expect(done.status, done.text).toBe(200);
    // 10k × 3000 + 20k × 300 + 1k × 15000 nanos per thousand tokens = 30M + 6M + 15M.
    const expected = 51_000_000;

    const charges = await chargesOf(tenant);
    expect(charges.status, charges.text).toBe(200);
    expect(charges.body.total).toBe(1);
    expect(charges.body.items[0]).toMatchObject({
      fleet_id: fleetId,
      event_id: lease.event_id,
      lease_id: lease.lease_id,
      model,
      provider: "anthropic",
      input_tokens: 10_000,
      cached_tokens: 20_000,
      output_tokens: 1_000,
      tokens: 31_000,
      input_nanos_per_mtok: 3_000_000_000,
      cached_input_nanos_per_mtok: 300_000_000,
      output_nanos_per_mtok: 15_000_000_000,
      price_source: "catalogue",
      cost_nanos: expected,
    });

    const billing = await billingOf(tenant);
    expect(billing.status, billing.text).toBe(200);
    expect(billing.body).toMatchObject({
      balance_nanos: 1_000_000_000 - expected,
      period: periodOf(Date.now()).period,
      spend_this_period_nanos: expected,
    });
    expect(billing.body.fleets.find((f) => f.fleet_id === fleetId)).toMatchObject({
      period_spend_nanos: expected,
      period_budget_nanos: null,
      over_budget: false,
    });
    expect(billing.body.daily).toEqual([
      { day: new Date().toISOString().slice(0, 10), fleet_id: fleetId, spend_nanos: expected },
    ]);
    // The event and the fleet list show what was charged.
    const event = await call(
      "GET",
      `/v1/workspaces/${tenant.workspaceId}/fleets/${fleetId}/events/${lease.event_id}`,
      { token: tenant.apiKey },
    );
    expect(event.body.cost_nanos).toBe(expected);
  });

  it("a model the catalogue does not price is charged the runner's cost; without one, 0", async () => {
    const tenant = await seedTenant();
    const { runner } = await workingFleet(tenant, 2);
    const first = await leaseOne(runner);
    expect(
      (await report(runner, first, { model: "self-hosted", input_tokens: 5, cost_nanos: 777 })).status,
    ).toBe(200);
    const second = await leaseOne(runner);
    expect((await report(runner, second)).status).toBe(200);
    const charges = await chargesOf(tenant);
    expect(charges.body.items.map((c) => [c.price_source, c.cost_nanos, c.input_nanos_per_mtok])).toEqual([
      ["reported", 0, null],
      ["reported", 777, null],
    ]);
    expect((await billingOf(tenant)).body.balance_nanos).toBe(-777); // reported, never refused
  });

  it("racing reports of one lease write exactly one charge and one debit", async () => {
    const tenant = await seedTenant();
    const { runner } = await workingFleet(tenant);
    const lease = await leaseOne(runner);
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => report(runner, lease, { cost_nanos: 1_000 })),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    for (const refused of answers.filter((a) => a.status !== 200)) {
      expect(refused.status).toBe(409);
      expect(refused.body.error_code).toBe("UZ-RUN-005");
    }
    const charges = await chargesOf(tenant);
    expect(charges.body.total).toBe(1);
    const billing = await billingOf(tenant);
    expect(billing.body.balance_nanos).toBe(-1_000);
    expect(billing.body.spend_this_period_nanos).toBe(1_000);
  });

  it("concurrent reports of one tenant's eight fleets each debit once; the balance is credits minus every charge", async () => {
    const api = await testApi();
    const tenant = await seedTenant();
    expect(
      (await credit(tenant.tenantId, { amount_nanos: 100_000, reference: `inv-${newId()}` })).status,
    ).toBe(201);
    const fleetsAndRunners = await Promise.all(Array.from({ length: 8 }, () => workingFleet(tenant, 2)));
    for (let round = 0; round < 2; round++) {
      const leases = await Promise.all(fleetsAndRunners.map(({ runner }) => leaseOne(runner)));
      const answers = await Promise.all(
        leases.map((lease, i) => report(fleetsAndRunners[i]!.runner, lease, { cost_nanos: 1_000 + i })),
      );
      for (const answer of answers) expect(answer.status, answer.text).toBe(200);
    }
    const spent = 2 * Array.from({ length: 8 }, (_, i) => 1_000 + i).reduce((a, b) => a + b, 0);
    const billing = await billingOf(tenant);
    expect(billing.body.balance_nanos).toBe(100_000 - spent);
    expect(billing.body.spend_this_period_nanos).toBe(spent);
    expect((await chargesOf(tenant)).body.total).toBe(16);
    // No report wrote the tenant's account row: it holds the credit alone.
    const account = await api.database.query<{ credited_nanos: string; retired_spend_nanos: string }>(
      "select credited_nanos, retired_spend_nanos from billing_accounts where tenant_id = $1",
      [tenant.tenantId],
    );
    expect(account.map((row) => [Number(row.credited_nanos), Number(row.retired_spend_nanos)])).toEqual([
      [100_000, 0],
    ]);
  });

  it("a deleted fleet's charges still count against the balance", async () => {
    const tenant = await seedTenant();
    const kept = await workingFleet(tenant);
    const gone = await workingFleet(tenant);
    for (const { runner } of [kept, gone]) {
      const lease = await leaseOne(runner);
      expect((await report(runner, lease, { cost_nanos: 700 })).status).toBe(200);
    }
    expect((await billingOf(tenant)).body.balance_nanos).toBe(-1_400);
    const removed = await call("DELETE", `/v1/workspaces/${tenant.workspaceId}/fleets/${gone.fleetId}`, {
      token: tenant.apiKey,
    });
    expect(removed.status, removed.text).toBe(204);
    const after = await billingOf(tenant);
    expect(after.body.balance_nanos).toBe(-1_400);
    expect(after.body.spend_this_period_nanos).toBe(1_400);
    expect(
      (await credit(tenant.tenantId, { amount_nanos: 2_000, reference: `inv-${newId()}` })).body,
    ).toMatchObject({ balance_nanos: 600 });
  });

  it("pages charges newest first by cursor, narrows to a fleet, and refuses a foreign cursor", async () => {
    const tenant = await seedTenant();
    const { fleetId, runner } = await workingFleet(tenant, 5);
    for (let i = 0; i < 5; i++) {
      const lease = await leaseOne(runner);
      expect((await report(runner, lease, { cost_nanos: 100 + i })).status).toBe(200);
    }
    const seen: number[] = [];
    let cursor: string | null = null;
    do {
      const page: Awaited<ReturnType<typeof chargesOf>> = await chargesOf(
        tenant,
        `?limit=2${cursor ? `&starting_after=${cursor}` : ""}`,
      );
      expect(page.status, page.text).toBe(200);
      expect(page.body.total).toBe(5);
      seen.push(...page.body.items.map((c) => c.cost_nanos));
      cursor = page.body.next_cursor;
    } while (cursor !== null);
    expect(seen).toEqual([104, 103, 102, 101, 100]);
    const narrowed = await chargesOf(tenant, `?fleet_id=${fleetId}&limit=1`);
    expect(narrowed.body.total).toBe(5);
    const other = await chargesOf(tenant, `?fleet_id=${newId()}`);
    expect(other.body).toEqual({ items: [], total: 0, next_cursor: null });
    // A cursor of the narrowed list is not one of the whole list.
    const foreign = await chargesOf(tenant, `?starting_after=${narrowed.body.next_cursor}`);
    expect(foreign.status).toBe(400);
    expect(foreign.body.error_code).toBe("UZ-REQ-001");
    for (const bad of ["?limit=0", "?limit=101", "?page=2", "?starting_after=%00", "?fleet_id=nope"]) {
      const refused = await chargesOf(tenant, bad);
      expect(refused.status, bad).toBe(400);
    }
    // Another tenant sees none of it.
    const stranger = await seedTenant();
    expect((await chargesOf(stranger)).body.total).toBe(0);
    expect((await billingOf(stranger)).body).toMatchObject({ balance_nanos: 0, spend_this_period_nanos: 0 });
  });

  it("an operator credit lands once per reference; another amount, an unknown tenant and bad input are refused", async () => {
    const tenant = await seedTenant();
    const token = await operatorToken(["credit:write"]);
    const first = await credit(
      tenant.tenantId,
      { amount_nanos: 500, reference: "pay-7", note: "trial" },
      token,
    );
    expect(first.status).toBe(201);
    const racing = await Promise.all(
      Array.from({ length: 6 }, () =>
        credit(tenant.tenantId, { amount_nanos: 500, reference: "pay-8" }, token),
      ),
    );
    expect(racing.filter((r) => r.status === 201)).toHaveLength(1);
    expect(racing.every((r) => r.status === 201 || r.status === 200)).toBe(true);
    const retried = await credit(tenant.tenantId, { amount_nanos: 500, reference: "pay-7" }, token);
    expect(retried.status).toBe(200);
    expect(retried.body.credit_id).toBe(first.body.credit_id);
    expect(retried.body.balance_nanos).toBe(1_000);
    const changed = await credit(tenant.tenantId, { amount_nanos: 501, reference: "pay-7" }, token);
    expect(changed.status).toBe(409);
    expect(changed.body.error_code).toBe("UZ-BILLING-002");
    const unknown = await credit(newId(), { amount_nanos: 1, reference: "x" }, token);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error_code).toBe("UZ-BILLING-001");
    for (const body of [
      { amount_nanos: 0, reference: "a" },
      { amount_nanos: -5, reference: "a" },
      { amount_nanos: 1.5, reference: "a" },
      { amount_nanos: 1e18, reference: "a" },
      { amount_nanos: 1, reference: "" },
      { amount_nanos: 1, reference: "a\u0000b" },
      { amount_nanos: 1 },
      { amount_nanos: "1", reference: "a" },
    ]) {
      const refused = await credit(tenant.tenantId, body, token);
      expect(refused.status, JSON.stringify(body)).toBe(400);
    }
    // A model operator may not credit, nor may the tenant itself.
    expect(
      (
        await credit(
          tenant.tenantId,
          { amount_nanos: 1, reference: "b" },
          await operatorToken(["model:admin"]),
        )
      ).status,
    ).toBe(403);
    expect((await credit(tenant.tenantId, { amount_nanos: 1, reference: "b" }, tenant.apiKey)).status).toBe(
      401,
    );
    expect((await billingOf(tenant)).body.balance_nanos).toBe(1_000);
  });
});

describe("budgets", () => {
  it("a run that reaches its cap is told to stop at its next usage or renew call; its report is still charged", async () => {
    const tenant = await seedTenant();
    const { fleetId, runner } = await workingFleet(tenant);
    await setBudget(tenant, fleetId, { run_budget_nanos: 1_000 });
    const lease = await leaseOne(runner);
    const under = await usage(runner, lease, { cost_nanos: 400 });
    expect(under.status, under.text).toBe(200);
    expect(under.body).toEqual({ lease_id: lease.lease_id, usage_nanos: 400, remaining_nanos: 600 });
    // An older (lower) figure arriving late does not lower the usage.
    expect((await usage(runner, lease, { cost_nanos: 100 })).body.usage_nanos).toBe(400);
    expect((await renew(runner, lease)).status).toBe(200);

    const over = await usage(runner, lease, { cost_nanos: 1_200 });
    expect(over.status).toBe(409);
    expect(over.body).toMatchObject({ error_code: "UZ-BUDGET-001", current_state: "over_budget" });
    expect(over.headers.get("content-type")).toContain("application/problem+json");
    const renewed = await renew(runner, lease);
    expect(renewed.status).toBe(409);
    expect(renewed.body.error_code).toBe("UZ-BUDGET-001");
    const done = await report(runner, lease, {
      outcome: "fleet_error",
      failure_label: "budget_exceeded",
      cost_nanos: 1_200,
    });
    expect(done.status, done.text).toBe(200);
    expect((await chargesOf(tenant)).body.items[0]?.cost_nanos).toBe(1_200);
  });

  it("a fleet over its period budget takes no new work until the budget is raised", async () => {
    const tenant = await seedTenant();
    const { fleetId, runner } = await workingFleet(tenant, 2);
    await setBudget(tenant, fleetId, { period_budget_nanos: 1_000, alert_percents: [] });
    const lease = await leaseOne(runner);
    // The fleet's remaining budget bounds the run too.
    expect((await usage(runner, lease, { cost_nanos: 700 })).body.remaining_nanos).toBe(300);
    expect((await report(runner, lease, { cost_nanos: 1_000 })).status).toBe(200);

    const budget = await call<Budget>("GET", budgetPath(tenant, fleetId), { token: tenant.apiKey });
    expect(budget.body).toMatchObject({
      period_budget_nanos: 1_000,
      period_spend_nanos: 1_000,
      over_budget: true,
    });
    const none = await acquire(runner);
    expect(none.status).toBe(200);
    expect(none.body.lease).toBeNull();

    const raised = await setBudget(tenant, fleetId, { period_budget_nanos: 5_000 });
    expect(raised.over_budget).toBe(false);
    const resumed = await leaseOne(runner);
    expect(resumed.fleet_id).toBe(fleetId);
    // Spend this period plus the run's usage counts against the fleet's budget mid-run.
    const over = await usage(runner, resumed, { cost_nanos: 4_000 });
    expect(over.status).toBe(409);
    expect(over.body.error_code).toBe("UZ-BUDGET-001");
    // null removes a budget.
    expect((await setBudget(tenant, fleetId, { period_budget_nanos: null })).period_budget_nanos).toBeNull();
    expect((await usage(runner, resumed, { cost_nanos: 4_000 })).status).toBe(200);
  });

  it("refuses bad settings and changes nothing; another tenant's fleet is 404", async () => {
    const tenant = await seedTenant();
    const { fleetId } = await workingFleet(tenant, 0);
    await setBudget(tenant, fleetId, {
      period_budget_nanos: 10,
      run_budget_nanos: 5,
      alert_percents: [90, 10],
    });
    for (const body of [
      { period_budget_nanos: -1 },
      { run_budget_nanos: 1.5 },
      { period_budget_nanos: "10" },
      { alert_percents: [0] },
      { alert_percents: [1001] },
      { alert_percents: [10, 10] },
      { alert_percents: Array.from({ length: 11 }, (_, i) => i + 1) },
      { alert_percents: null },
      { alert_percents: "50" },
      { budget: 1 },
    ]) {
      const refused = await call("PATCH", budgetPath(tenant, fleetId), { token: tenant.apiKey, body });
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.error_code).toBe("UZ-REQ-001");
    }
    const kept = await call<Budget>("GET", budgetPath(tenant, fleetId), { token: tenant.apiKey });
    expect(kept.body).toMatchObject({
      period_budget_nanos: 10,
      run_budget_nanos: 5,
      alert_percents: [10, 90],
    });
    const stranger = await seedTenant();
    const theirs = await call("PATCH", budgetPath(stranger, fleetId), {
      token: stranger.apiKey,
      body: { period_budget_nanos: 1 },
    });
    expect(theirs.status).toBe(404);
    expect(theirs.body.error_code).toBe("UZ-FLEET-001");
  });
});

describe("budget alerts", () => {
  it("each crossed percent goes out exactly once, on the stream and as a signed webhook, under racing usage calls", async () => {
    const hook = await receiver();
    try {
      const tenant = await seedTenant();
      const minted = await call<{ secret: string }>(
        "POST",
        `/v1/workspaces/${tenant.workspaceId}/webhook-secret`,
        { token: tenant.apiKey },
      );
      expect(minted.status, minted.text).toBe(201);
      const policy = await call("PUT", `/v1/workspaces/${tenant.workspaceId}/approval-policy`, {
        token: tenant.apiKey,
        body: { rules: [], escalation_webhook_url: hook.url },
      });
      expect(policy.status, policy.text).toBe(200);
      const { fleetId, runner } = await workingFleet(tenant, 2);
      await setBudget(tenant, fleetId, { period_budget_nanos: 1_000, alert_percents: [50, 80, 100] });
      const api = await testApi();
      const stream = await openStream(
        api.baseUrl,
        `/v1/workspaces/${tenant.workspaceId}/fleets/${fleetId}/events/stream?kinds=budget_alert`,
        { token: tenant.apiKey },
      );
      expect(stream.status).toBe(200);
      try {
        const lease = await leaseOne(runner);
        const racing = await Promise.all(
          Array.from({ length: 10 }, () => usage(runner, lease, { cost_nanos: 850 })),
        );
        expect(racing.every((r) => r.status === 200)).toBe(true);
        // The report pushes the spend over 100%, concurrently with more usage calls.
        const [done] = await Promise.all([
          report(runner, lease, { cost_nanos: 1_100 }),
          ...Array.from({ length: 4 }, () => usage(runner, lease, { cost_nanos: 900 })),
        ]);
        expect(done!.status).toBe(200);

        await stream.next((f) => f.event === "budget_alert" && f.data.payload.percent === 100, 10_000);
        const calls = await until(() => (hook.calls.length >= 3 ? hook.calls : undefined), 10_000);
        await new Promise((resolve) => setTimeout(resolve, 300)); // nothing more arrives
        const rows = await api.database.db
          .select()
          .from(budgetAlerts)
          .where(eq(budgetAlerts.fleetId, fleetId));
        expect(rows.map((r) => r.percent).sort((a, b) => a - b)).toEqual([50, 80, 100]);
        const frames = stream.frames.filter((f) => f.event === "budget_alert");
        expect(frames.map((f) => f.data.payload.percent).sort((a: number, b: number) => a - b)).toEqual([
          50, 80, 100,
        ]);
        expect(frames[0]!.data).toMatchObject({ fleet_id: fleetId, workspace_id: tenant.workspaceId });
        expect(hook.calls).toHaveLength(3);
        for (const received of calls) {
          const headers = {
            timestamp: received.headers["x-signature-timestamp"] as string,
            signature: received.headers["x-signature"] as string,
          };
          expect(verify(minted.body.secret, headers, received.body, Date.now())).toBe("valid");
          expect(received.headers["user-agent"]).toBe("fleet-control-plane/budget-alert");
        }
        const payloads = calls.map((c) => JSON.parse(c.body) as Record<string, unknown>);
        expect(payloads.map((p) => p.percent).sort()).toEqual([100, 50, 80]);
        expect(payloads[0]).toMatchObject({
          type: "budget.alert",
          fleet_id: fleetId,
          period_budget_nanos: 1_000,
        });

        // Raising the budget forgets the alerts now out of reach; crossing them again sends them again.
        await setBudget(tenant, fleetId, { period_budget_nanos: 10_000 });
        const kept = await api.database.db
          .select()
          .from(budgetAlerts)
          .where(eq(budgetAlerts.fleetId, fleetId));
        expect(kept).toHaveLength(0);
        const next = await leaseOne(runner);
        expect((await usage(runner, next, { cost_nanos: 4_000 })).status).toBe(200);
        const again = await stream.next(
          (f) => f.event === "budget_alert" && f.data.payload.period_budget_nanos === 10_000,
          10_000,
        );
        expect(again.data.payload).toMatchObject({ percent: 50, period_spend_nanos: 5_100 });
      } finally {
        stream.close();
      }
    } finally {
      await hook.close();
    }
  });
});

/** A local receiver of outgoing webhooks: every call's headers and raw body. */
async function receiver() {
  const calls: { headers: IncomingHttpHeaders; body: string }[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      calls.push({ headers: request.headers, body: Buffer.concat(chunks).toString("utf8") });
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/budgets`,
    calls,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function until<T>(read: () => T | undefined, ms: number): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`nothing within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
