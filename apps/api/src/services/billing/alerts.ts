import { type Database, resultRows, sql, type Tx } from "@fleet/db";
import type { ServiceContext } from "../shared/context.ts";
import { budgetWebhookEvents, EXHAUSTED_PERCENT } from "./budget-webhooks.ts";

/** An alert a write just recorded (its row inserted by this write, and by no other). */
export interface BudgetAlert {
  workspace_id: string;
  fleet_id: string;
  period: string;
  percent: number;
  budget_nanos: number;
  spend_nanos: number;
  /** The id of its `budget.threshold_crossed` outgoing event, which its `budget_alert` frame carries. */
  webhook_id?: string;
}

/**
 * Records the alerts `spend` crosses for the fleet this period, inside the caller's transaction (the fleet
 * row locked by it) or one of its own. Each (fleet, period, percent) row is inserted once whatever races
 * it: the primary key refuses the rest, so the caller announces only what its own insert returned. The
 * rows inserted write their outbox events in the same transaction (`budget.threshold_crossed` for each
 * named percent, `budget.exhausted` for the spent budget). Below every percent, no statement runs.
 */
export async function recordCrossedAlerts(
  db: Database | Tx,
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
  const budget = fleet.periodBudgetNanos;
  if (budget === null) return [];
  const percents = [...new Set([...fleet.percents, EXHAUSTED_PERCENT])];
  // In integers, as the statement compares: a float product could round across the line.
  if (BigInt(spend) * 100n < BigInt(budget) * BigInt(Math.min(...percents))) return [];
  return db.transaction(async (tx) => {
    const rows = resultRows<BudgetAlert>(
      await tx.execute(sql`
      insert into budget_alerts (fleet_id, period, percent, tenant_id, budget_nanos, spend_nanos, created_at)
      select ${fleet.id}::uuid, ${period}, p, ${fleet.tenantId}::uuid, ${fleet.periodBudgetNanos}::bigint,
             ${spend}::bigint, ${now}::bigint
      from unnest(${`{${percents.join(",")}}`}::integer[]) p
      where ${spend}::numeric * 100 >= ${fleet.periodBudgetNanos}::numeric * p
      on conflict do nothing
      returning ${fleet.workspaceId}::text as workspace_id, fleet_id, period, percent, budget_nanos, spend_nanos`),
    );
    const recorded = rows.map(normalise);
    const { crossedIds } = await budgetWebhookEvents(tx, fleet, recorded, now);
    return recorded
      .filter((alert) => fleet.percents.includes(alert.percent))
      .map((alert) => ({ ...alert, webhook_id: crossedIds.get(alert.percent)! }));
  });
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
 * Announces alerts recorded by a committed write: a `budget_alert` frame on the fleet's stream, and a kick
 * of the deliverer for their outbox events (the workspace's notice endpoint, the approval policy's URL,
 * gets `budget.alert` from there). The write that crossed the line neither waits for nor fails with them.
 */
export function announceBudgetAlerts(ctx: ServiceContext, alerts: readonly BudgetAlert[]): void {
  if (alerts.length > 0) ctx.webhookOutbox?.kick();
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
      payload: alert.webhook_id === undefined ? facts : { ...facts, webhook_id: alert.webhook_id },
      at,
    });
  }
}
