import { asc, eq, fleets, resultRows, sql } from "@fleet/db";
import type { ServiceContext } from "../shared/context.ts";
import { balanceOf } from "./account.ts";
import { toFleetBudget } from "./budgets.ts";
import { periodOf } from "./period.ts";

const DAY_MS = 86_400_000;

/** The tenant's balance, this period's spend, each fleet's budget and spend, and the spend per day per fleet. */
export async function getBilling(ctx: ServiceContext, tenantId: string) {
  const { period, start, end } = periodOf(ctx.now());
  const [balance, fleetRows, daily] = await Promise.all([
    balanceOf(ctx.db, tenantId),
    ctx.db
      .select()
      .from(fleets)
      .where(eq(fleets.tenantId, tenantId))
      .orderBy(asc(fleets.name), asc(fleets.id)),
    ctx.db.execute(sql`
      select fleet_id, floor(created_at / ${DAY_MS})::bigint as day, sum(cost_nanos)::bigint as spend
      from charges
      where tenant_id = ${tenantId}::uuid and created_at >= ${start}::bigint and created_at < ${end}::bigint
      group by 1, 2 order by 2, 1`),
  ]);
  const days = resultRows<{ fleet_id: string; day: number | string; spend: number | string }>(daily).map(
    (row) => ({
      day: new Date(Number(row.day) * DAY_MS).toISOString().slice(0, 10),
      fleet_id: row.fleet_id,
      spend_nanos: Number(row.spend),
    }),
  );
  return {
    balance_nanos: balance,
    period,
    period_start: start,
    period_end: end,
    // From the charges, so a deleted fleet's spend still counts.
    spend_this_period_nanos: days.reduce((sum, day) => sum + day.spend_nanos, 0),
    fleets: fleetRows.map((fleet) => toFleetBudget(fleet, period)),
    daily: days,
  };
}
