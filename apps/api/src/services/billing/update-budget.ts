import { eq, fleets, sql, type Tx } from "@fleet/db";
import type { Actor } from "../shared/audit.ts";
import { recordAudit } from "../shared/audit.ts";
import type { ServiceContext } from "../shared/context.ts";
import { requireFleet } from "../shared/tenancy.ts";
import { announceBudgetAlerts, recordCrossedAlerts } from "./alerts.ts";
import { EXHAUSTED_PERCENT } from "./budget-webhooks.ts";
import { intArray, spendIn, toFleetBudget } from "./budgets.ts";
import { periodOf } from "./period.ts";

type FleetRow = typeof fleets.$inferSelect;

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
  const percents = [...intArray(fleet.budgetAlertPercents), EXHAUSTED_PERCENT];
  await tx.execute(sql`
    delete from budget_alerts
    where fleet_id = ${fleet.id}::uuid and period = ${period}
      and (${budget}::bigint is null
        or not (percent = any(${`{${percents.join(",")}}`}::integer[]))
        or ${spend}::numeric * 100 < ${budget}::numeric * percent)`);
}
