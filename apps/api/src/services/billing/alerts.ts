import { type Database, resultRows, sql, type Tx } from "@fleet/db";
import type { ServiceContext } from "../shared/context.ts";

/** An alert a write just recorded (its row inserted by this write, and by no other). */
export interface BudgetAlert {
  workspace_id: string;
  fleet_id: string;
  period: string;
  percent: number;
  budget_nanos: number;
  spend_nanos: number;
}

/**
 * Records the alerts `spend` crosses for the fleet this period, inside the caller's transaction (the fleet
 * row locked by it). Each (fleet, period, percent) row is inserted once whatever races it: the primary key
 * refuses the rest, so the caller announces only what its own insert returned.
 */
export async function recordCrossedAlerts(
  tx: Database | Tx,
  fleet: {
    id: string;
    tenantId: string;
    workspaceId: string;
    periodBudgetNanos: number | null;
    percents: number[];
  },
  period: string,
  spend: number,
  now: number,
): Promise<BudgetAlert[]> {
  if (fleet.periodBudgetNanos === null || fleet.percents.length === 0) return [];
  const rows = resultRows<BudgetAlert>(
    await tx.execute(sql`
      insert into budget_alerts (fleet_id, period, percent, tenant_id, budget_nanos, spend_nanos, created_at)
      select ${fleet.id}::uuid, ${period}, p, ${fleet.tenantId}::uuid, ${fleet.periodBudgetNanos}::bigint,
             ${spend}::bigint, ${now}::bigint
      from unnest(${`{${fleet.percents.join(",")}}`}::integer[]) p
      where ${spend}::numeric * 100 >= ${fleet.periodBudgetNanos}::numeric * p
      on conflict do nothing
      returning ${fleet.workspaceId}::text as workspace_id, fleet_id, period, percent, budget_nanos, spend_nanos`),
  );
  return rows.map(normalise);
}

/** Rows from `returning` arrive with bigints as text on some drivers. */
export function normalise(row: BudgetAlert): BudgetAlert {
  return {
    workspace_id: row.workspace_id,
    fleet_id: row.fleet_id,
    period: row.period,
    percent: Number(row.percent),
    budget_nanos: Number(row.budget_nanos),
    spend_nanos: Number(row.spend_nanos),
  };
}

/**
 * Announces alerts recorded by a committed write: a `budget_alert` frame on the fleet's stream, and the
 * signed outgoing webhook (`budget.alert`) to the workspace's URL, in the background: the write that
 * crossed the line neither waits for nor fails with the delivery.
 */
export function announceBudgetAlerts(ctx: ServiceContext, alerts: readonly BudgetAlert[]): void {
  for (const alert of alerts) {
    const at = ctx.now();
    const facts = {
      period: alert.period,
      percent: alert.percent,
      period_budget_nanos: alert.budget_nanos,
      period_spend_nanos: alert.spend_nanos,
    };
    ctx.streams.publish({
      workspaceId: alert.workspace_id,
      fleetId: alert.fleet_id,
      eventId: null,
      leaseId: null,
      kind: "budget_alert",
      payload: facts,
      at,
    });
    ctx.webhook
      .send(
        ctx,
        alert.workspace_id,
        { type: "budget.alert", fleet_id: alert.fleet_id, workspace_id: alert.workspace_id, ...facts, at },
        "budget-alert",
      )
      .catch(() => {});
  }
}
