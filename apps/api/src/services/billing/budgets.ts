import { Problem } from "@fleet/contracts";
import { eq, fleets, type leases, type Tx } from "@fleet/db";
import { periodOf } from "./period.ts";

type FleetRow = typeof fleets.$inferSelect;

/** An integer array as the drivers hand it back: an array, or PostgreSQL's `{1,2}` text. */
export function intArray(value: number[] | string): number[] {
  if (Array.isArray(value)) return value.map(Number);
  const inner = value.replace(/^\{|\}$/g, "");
  return inner === "" ? [] : inner.split(",").map(Number);
}

/** What the fleet spent in `period`: its counter, when the counter is of that period. */
export function spendIn(fleet: Pick<FleetRow, "spendPeriod" | "periodSpendNanos">, period: string): number {
  return fleet.spendPeriod === period ? fleet.periodSpendNanos : 0;
}

export function toFleetBudget(fleet: FleetRow, period: string) {
  const spend = spendIn(fleet, period);
  return {
    fleet_id: fleet.id,
    workspace_id: fleet.workspaceId,
    name: fleet.name,
    period_budget_nanos: fleet.periodBudgetNanos,
    run_budget_nanos: fleet.runBudgetNanos,
    alert_percents: intArray(fleet.budgetAlertPercents),
    period,
    period_spend_nanos: spend,
    over_budget: fleet.periodBudgetNanos !== null && spend >= fleet.periodBudgetNanos,
  };
}

/**
 * What bounds a run now: its own cap, and what is left of its fleet's budget this period. `debited` is
 * the part of the run's usage already in the fleet's spend (its model calls through the gateway), not
 * counted twice.
 */
export function remaining(fleet: FleetRow, usage: number, period: string, debited = 0): number | null {
  const bounds: number[] = [];
  if (fleet.runBudgetNanos !== null) bounds.push(fleet.runBudgetNanos - usage);
  if (fleet.periodBudgetNanos !== null)
    bounds.push(fleet.periodBudgetNanos - spendIn(fleet, period) - (usage - debited));
  return bounds.length === 0 ? null : Math.max(0, Math.min(...bounds));
}

export function overBudget(detail: string): Problem {
  return new Problem("UZ-BUDGET-001", { detail, current_state: "over_budget" });
}

/** What a budget verdict reads of a fleet. */
type Budgets = Pick<FleetRow, "runBudgetNanos" | "periodBudgetNanos" | "spendPeriod" | "periodSpendNanos">;

/** The refusal a run gets once nothing is left of its budget, or null while it may go on (`debited`: as above). */
export function runRefusal(fleet: Budgets, usage: number, period: string, debited = 0): Problem | null {
  if (fleet.runBudgetNanos !== null && usage >= fleet.runBudgetNanos) {
    return overBudget(
      `The run has spent ${usage} nanos, its fleet's cap per run is ${fleet.runBudgetNanos}; stop and report.`,
    );
  }
  if (
    fleet.periodBudgetNanos !== null &&
    spendIn(fleet, period) + usage - debited >= fleet.periodBudgetNanos
  ) {
    return overBudget(
      `The fleet's budget for ${period} (${fleet.periodBudgetNanos} nanos) is spent with this run's ${usage}; stop and report.`,
    );
  }
  return null;
}

/**
 * Checks a held lease's run against its budgets, inside the fenced write's transaction (the fleet locked):
 * what was spent, not what its model calls in flight reserve (a worst case their charges replace).
 */
export async function budgetRefusal(tx: Tx, lease: typeof leases.$inferSelect, now: number) {
  const [fleet] = await tx.select().from(fleets).where(eq(fleets.id, lease.fleetId));
  return fleet === undefined
    ? null
    : runRefusal(fleet, lease.usageNanos, periodOf(now).period, lease.modelNanos);
}
