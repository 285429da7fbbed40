import assert from "node:assert/strict";
import { test } from "node:test";
import { axisTicks, formatNanos, formatTick, spendChartData, usedPercent } from "./spend.ts";

const start = Date.UTC(2026, 10, 1);
const end = Date.UTC(2026, 11, 1);

test("gives every day of the period so far, one series per fleet, biggest spender first", () => {
  const data = spendChartData(
    [
      { day: "2026-11-01", fleet_id: "a", spend_nanos: 5 },
      { day: "2026-11-03", fleet_id: "b", spend_nanos: 50 },
      { day: "2026-11-03", fleet_id: "a", spend_nanos: 7 },
      { day: "2026-10-31", fleet_id: "a", spend_nanos: 999 }, // outside the period: ignored
    ],
    new Map([["a", "Alpha"]]),
    { start, end },
    Date.UTC(2026, 10, 3, 12),
  );
  assert.deepEqual(data.days, ["2026-11-01", "2026-11-02", "2026-11-03"]);
  assert.deepEqual(data.series, [
    { fleetId: "b", name: "Deleted fleet", values: [0, 0, 50] },
    { fleetId: "a", name: "Alpha", values: [5, 0, 7] },
  ]);
  assert.deepEqual(data.totals, [5, 0, 57]);
});

test("stops at the period's last day once the period is past", () => {
  const data = spendChartData([], new Map(), { start, end }, Date.UTC(2027, 0, 5));
  assert.equal(data.days.length, 30);
  assert.equal(data.days.at(-1), "2026-11-30");
  assert.deepEqual(data.series, []);
});

test("shows a negative balance with a minus sign, and the share of a budget spent", () => {
  assert.equal(formatNanos(-1_500_000_000), "−$1.50");
  assert.equal(formatNanos(2_000_000_000), "$2.00");
  assert.equal(usedPercent(800, 1000), 80);
  assert.equal(usedPercent(5, null), null);
  assert.equal(usedPercent(0, 0), 0);
  assert.equal(usedPercent(1, 0), 100);
});

test("the axis reads in cents at least: nothing spent is $0 to $0.01, never $0.000000001", () => {
  const labels = (largest: number) => {
    const ticks = axisTicks(largest);
    return ticks.map((tick) => formatTick(tick, ticks[1]!));
  };
  assert.deepEqual(labels(0), ["$0", "$0.0025", "$0.005", "$0.0075", "$0.01"]);
  assert.deepEqual(labels(3), ["$0", "$0.0025", "$0.005", "$0.0075", "$0.01"]);
  assert.deepEqual(labels(400_000_000), ["$0", "$0.125", "$0.25", "$0.375", "$0.50"]);
  assert.deepEqual(labels(1_300_000_000), ["$0", "$0.50", "$1.00", "$1.50", "$2.00"]);
});
