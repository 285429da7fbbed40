import { formatCost } from "../../lib/format.ts";

/** Nanos as money, below zero too (a balance may be). */
export function formatNanos(nanos: number): string {
  return nanos < 0 ? `−${formatCost(-nanos)}` : formatCost(nanos);
}

const DAY_MS = 86_400_000;

/**
 * The axis never goes below a cent: with nothing spent (or a few nano-dollars) a scale fitted to the data
 * labelled its ticks "$0.000000001", money no one spends. A cent is the smallest sum a person reads.
 */
const AXIS_FLOOR_NANOS = 10_000_000;

/** A round upper bound for the axis: 1, 2 or 5 times a power of ten, at least the largest total. */
function niceMax(value: number): number {
  const power = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 5, 10]) if (step * power >= value) return step * power;
  return 10 * power;
}

/**
 * An axis tick as money with as many decimals as the ticks' step needs and at least two, the same for
 * every tick of an axis ("$0.0025", "$0.0050" would read as two scales): trailing zeros past the second
 * decimal go.
 */
export function formatTick(nanos: number, step: number): string {
  const dollars = nanos / 1e9;
  if (dollars === 0) return "$0";
  const digits = Math.min(9, Math.max(2, Math.ceil(-Math.log10(step / 1e9)) + 2));
  return `$${dollars.toFixed(digits).replace(/(\.\d\d\d*?)0+$/, "$1")}`;
}

/** The axis's five ticks, from $0 to a round top at least the largest day's total and at least a cent. */
export function axisTicks(largest: number): number[] {
  const top = niceMax(Math.max(AXIS_FLOOR_NANOS, largest));
  return [0, 0.25, 0.5, 0.75, 1].map((share) => share * top);
}

export interface SpendSeries {
  fleetId: string;
  name: string;
  /** Spend per day, one value per entry of `days`. */
  values: number[];
}

export interface SpendChartData {
  /** `YYYY-MM-DD`, every UTC day of the period up to today (or the period's end). */
  days: string[];
  /** One series per fleet that spent this period, biggest spender first. */
  series: SpendSeries[];
  /** Each day's total, for the bars' scale. */
  totals: number[];
}

/**
 * Folds the API's `daily` rows (day, fleet, spend; days without charges absent) into one value per day
 * per fleet, from the period's first day to `now` (the whole period once it is past).
 */
export function spendChartData(
  daily: readonly { day: string; fleet_id: string; spend_nanos: number }[],
  names: ReadonlyMap<string, string>,
  period: { start: number; end: number },
  now: number,
): SpendChartData {
  const last = Math.min(now, period.end - 1);
  const days: string[] = [];
  for (let at = period.start; at <= last; at += DAY_MS) days.push(new Date(at).toISOString().slice(0, 10));
  const index = new Map(days.map((day, i) => [day, i]));
  const byFleet = new Map<string, number[]>();
  for (const row of daily) {
    const i = index.get(row.day);
    if (i === undefined) continue;
    let values = byFleet.get(row.fleet_id);
    if (values === undefined) {
      values = days.map(() => 0);
      byFleet.set(row.fleet_id, values);
    }
    values[i] = (values[i] ?? 0) + row.spend_nanos;
  }
  const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
  const series = [...byFleet.entries()]
    .map(([fleetId, values]) => ({ fleetId, name: names.get(fleetId) ?? "Deleted fleet", values }))
    .sort((a, b) => sum(b.values) - sum(a.values) || a.name.localeCompare(b.name));
  const totals = days.map((_, i) => series.reduce((total, s) => total + (s.values[i] ?? 0), 0));
  return { days, series, totals };
}

/** The share of a budget spent, as a whole percent (null without a budget). */
export function usedPercent(spend: number, budget: number | null): number | null {
  if (budget === null) return null;
  if (budget === 0) return spend > 0 ? 100 : 0;
  return Math.floor((spend * 100) / budget);
}
