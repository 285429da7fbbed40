import { type SQL, sql } from "@fleet/db";

/** The billing period holding `at`: the calendar month in UTC, as `YYYY-MM`, with its bounds in epoch ms. */
export interface Period {
  period: string;
  start: number;
  /** Exclusive: the first instant of the next period. */
  end: number;
}

export function periodOf(at: number): Period {
  const date = new Date(at);
  const year = date.getUTCFullYear();
  const month = date.getUTCMonth();
  return {
    period: `${year}-${String(month + 1).padStart(2, "0")}`,
    start: Date.UTC(year, month, 1),
    end: Date.UTC(year, month + 1, 1),
  };
}

/**
 * A fleet's spend in `period`, in SQL over the fleet row aliased `f`: its counter, read as 0 once the period
 * has turned (the counter is reset by the next write, not by a sweep). `period` is a value, or a column of
 * a batch's rows (each row its own period).
 */
export function spendThisPeriod(period: string | SQL) {
  return sql`case when f.spend_period = ${period} then f.period_spend_nanos else 0 end`;
}

/** Whether the fleet row `f` may take new work in `period`: no period budget, or spend below it. */
export function budgetLeft(period: string) {
  return sql`(f.period_budget_nanos is null or ${spendThisPeriod(period)} < f.period_budget_nanos)`;
}
