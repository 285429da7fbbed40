import { describe, expect, it } from "vitest";
import {
  type Budget,
  budgetPath,
  chargesOf,
  leaseOne,
  setBudget,
  usage,
  workingFleet,
} from "./billing-fixtures.ts";
import { call, seedTenant, useIsolatedApi } from "./harness.ts";
import { acquire, type EnrolledRunner, type HeldLease, report } from "./runner-fixtures.ts";

// Runners lease any tenant's work: a database of its own, in dev mode as the whole billing suite runs.
useIsolatedApi({ FLEET_DEV_MODE: "true" });

function renew(runner: EnrolledRunner, lease: HeldLease) {
  return call("POST", `/v1/runners/me/leases/${lease.lease_id}/renew`, {
    token: runner.token,
    body: { fencing_token: lease.fencing_token },
  });
}

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
