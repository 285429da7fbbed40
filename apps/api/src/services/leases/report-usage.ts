import { and, eq, fleets, leases, sql } from "@fleet/db";
import { announceBudgetAlerts, type BudgetAlert, recordCrossedAlerts } from "../billing/alerts.ts";
import { intArray, remaining, runRefusal, spendIn } from "../billing/budgets.ts";
import { periodOf } from "../billing/period.ts";
import { type Meters, priceUsage } from "../billing/pricing.ts";
import type { ServiceContext } from "../shared/context.ts";
import { fencedWrite } from "../shared/fence.ts";

/**
 * A runner's mid-run usage: recorded (cumulative, never lowered) in a fenced write, then checked against
 * the run's budgets. Over budget, the usage still commits and the answer is 409 UZ-BUDGET-001. Alerts the
 * fleet's spend plus this run's usage crosses are recorded with it, each once.
 */
export async function reportUsage(
  ctx: ServiceContext,
  runnerId: string,
  input: Meters & { lease_id: string; fencing_token: number },
) {
  const now = ctx.now();
  const { period } = periodOf(now);
  const priced = await priceUsage(ctx.db, input);
  const outcome = await fencedWrite(ctx, runnerId, input, async (tx, lease) => {
    const [updated] = await tx
      .update(leases)
      // The runner reports its other spend; the gateway's metered model calls are added on top.
      .set({
        usageNanos: sql`greatest(${leases.usageNanos}, ${priced.costNanos}::bigint + ${leases.modelNanos})`,
      })
      .where(and(eq(leases.id, lease.id), eq(leases.status, "running")))
      .returning({ usage: leases.usageNanos, debited: leases.modelNanos });
    const usage = updated?.usage ?? lease.usageNanos;
    const debited = updated?.debited ?? lease.modelNanos;
    const [fleet] = await tx.select().from(fleets).where(eq(fleets.id, lease.fleetId));
    if (fleet === undefined) return { usage, refusal: null, left: null, alerts: [] as BudgetAlert[] };
    const alerts = await recordCrossedAlerts(
      tx,
      {
        id: fleet.id,
        tenantId: fleet.tenantId,
        workspaceId: fleet.workspaceId,
        periodBudgetNanos: fleet.periodBudgetNanos,
        percents: intArray(fleet.budgetAlertPercents),
      },
      period,
      spendIn(fleet, period) + usage - debited,
      now,
    );
    return {
      usage,
      refusal: runRefusal(fleet, usage, period, debited),
      left: remaining(fleet, usage, period, debited),
      alerts,
    };
  });
  announceBudgetAlerts(ctx, outcome.alerts);
  if (outcome.refusal !== null) throw outcome.refusal;
  return { lease_id: input.lease_id, usage_nanos: outcome.usage, remaining_nanos: outcome.left };
}
