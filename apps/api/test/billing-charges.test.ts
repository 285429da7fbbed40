import type { OutputOf } from "@fleet/contracts";
import type { creditTenant } from "@fleet/contracts/billing/credit-tenant";
import { describe, expect, it } from "vitest";
import { newId } from "../src/runtime/ids.ts";
import { periodOf } from "../src/services/billing/period.ts";
import { billingOf, chargesOf, leaseOne, workingFleet } from "./billing-fixtures.ts";
import { call, operatorToken, seedTenant, testApi, useIsolatedApi } from "./harness.ts";
import { report } from "./runner-fixtures.ts";

// Runners lease any tenant's work: a database of its own, in dev mode as the whole billing suite runs.
useIsolatedApi({ FLEET_DEV_MODE: "true" });

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
