import { Problem } from "@fleet/contracts";
import { eq, fleets, type leases, sql, type Tx } from "@fleet/db";
import type { Actor } from "../shared/audit.ts";
import { recordAudit } from "../shared/audit.ts";
import type { ServiceContext } from "../shared/context.ts";
import { requireFleet } from "../shared/tenancy.ts";
import { announceBudgetAlerts, recordCrossedAlerts } from "./alerts.ts";
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

export async function getBudget(
  ctx: ServiceContext,
  tenantId: string,
  input: { workspace_id: string; fleet_id: string },
) {
  const fleet = await requireFleet(ctx.db, tenantId, input.workspace_id, input.fleet_id);
  return toFleetBudget(fleet, periodOf(ctx.now()).period);
}

/**
 * Changes a fleet's budget settings. Alerts already sent this period for percents the new budget puts out
 * of reach are forgotten (they go out again when crossed); those still crossed, and newly crossed ones,
 * stand or go out now. A raised budget can free waiting work: waiting runners are woken.
 */
export async function updateBudget(
  ctx: ServiceContext,
  actor: Actor,
  tenantId: string,
  input: {
    workspace_id: string;
    fleet_id: string;
    period_budget_nanos?: number | null | undefined;
    run_budget_nanos?: number | null | undefined;
    alert_percents?: number[] | undefined;
  },
) {
  const now = ctx.now();
  const { period } = periodOf(now);
  const { view, alerts } = await ctx.db.transaction(async (tx) => {
    await requireFleet(tx, tenantId, input.workspace_id, input.fleet_id, { forUpdate: true });
    const changes: Partial<FleetRow> = {};
    if (input.period_budget_nanos !== undefined) changes.periodBudgetNanos = input.period_budget_nanos;
    if (input.run_budget_nanos !== undefined) changes.runBudgetNanos = input.run_budget_nanos;
    if (input.alert_percents !== undefined)
      changes.budgetAlertPercents = [...input.alert_percents].sort((a, b) => a - b);
    const [fleet] =
      Object.keys(changes).length === 0
        ? await tx.select().from(fleets).where(eq(fleets.id, input.fleet_id))
        : await tx.update(fleets).set(changes).where(eq(fleets.id, input.fleet_id)).returning();
    const row = fleet!;
    const spend = spendIn(row, period);
    await forgetUncrossedAlerts(tx, row, period, spend);
    const crossed = await recordCrossedAlerts(
      tx,
      {
        id: row.id,
        tenantId,
        workspaceId: row.workspaceId,
        periodBudgetNanos: row.periodBudgetNanos,
        percents: intArray(row.budgetAlertPercents),
      },
      period,
      spend,
      now,
    );
    await recordAudit(tx, {
      actor,
      at: now,
      tenantId,
      workspaceId: row.workspaceId,
      action: "fleet.budget.update",
      target: `fleet:${row.id}`,
      details: {
        period_budget_nanos: row.periodBudgetNanos,
        run_budget_nanos: row.runBudgetNanos,
        alert_percents: intArray(row.budgetAlertPercents),
      },
    });
    return { view: toFleetBudget(row, period), alerts: crossed };
  });
  announceBudgetAlerts(ctx, alerts);
  if (!view.over_budget) ctx.work.announce();
  return view;
}

async function forgetUncrossedAlerts(tx: Tx, fleet: FleetRow, period: string, spend: number) {
  const budget = fleet.periodBudgetNanos;
  const percents = intArray(fleet.budgetAlertPercents);
  await tx.execute(sql`
    delete from budget_alerts
    where fleet_id = ${fleet.id}::uuid and period = ${period}
      and (${budget}::bigint is null
        or not (percent = any(${`{${percents.join(",")}}`}::integer[]))
        or ${spend}::numeric * 100 < ${budget}::numeric * percent)`);
}

/** What bounds a run now: its own cap, and what is left of its fleet's budget this period. */
export function remaining(fleet: FleetRow, usage: number, period: string): number | null {
  const bounds: number[] = [];
  if (fleet.runBudgetNanos !== null) bounds.push(fleet.runBudgetNanos - usage);
  if (fleet.periodBudgetNanos !== null) bounds.push(fleet.periodBudgetNanos - spendIn(fleet, period) - usage);
  return bounds.length === 0 ? null : Math.max(0, Math.min(...bounds));
}

export function overBudget(detail: string): Problem {
  return new Problem("UZ-BUDGET-001", { detail, current_state: "over_budget" });
}

/** The refusal a run gets once nothing is left of its budget, or null while it may go on. */
export function runRefusal(fleet: FleetRow, usage: number, period: string): Problem | null {
  if (fleet.runBudgetNanos !== null && usage >= fleet.runBudgetNanos) {
    return overBudget(
      `The run has spent ${usage} nanos, its fleet's cap per run is ${fleet.runBudgetNanos}; stop and report.`,
    );
  }
  if (fleet.periodBudgetNanos !== null && spendIn(fleet, period) + usage >= fleet.periodBudgetNanos) {
    return overBudget(
      `The fleet's budget for ${period} (${fleet.periodBudgetNanos} nanos) is spent with this run's ${usage}; stop and report.`,
    );
  }
  return null;
}

/** Checks a held lease's run against its budgets, inside the fenced write's transaction (the fleet locked). */
export async function budgetRefusal(tx: Tx, lease: typeof leases.$inferSelect, now: number) {
  const [fleet] = await tx.select().from(fleets).where(eq(fleets.id, lease.fleetId));
  return fleet === undefined ? null : runRefusal(fleet, lease.usageNanos, periodOf(now).period);
}
