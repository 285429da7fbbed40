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
