import assert from "node:assert/strict";
import { test } from "node:test";
import { dollarsText, formatPerMillion, parseDollars } from "./money.ts";

test("shows nanos as dollars with at least two decimals, and every digit a price has", () => {
  assert.equal(formatPerMillion(3_000_000_000), "$3.00");
  assert.equal(formatPerMillion(75_000_000), "$0.075");
  assert.equal(formatPerMillion(0), "$0.00");
  assert.equal(formatPerMillion(1), "$0.000000001");
  assert.equal(formatPerMillion(1_234_500_000_000), "$1,234.50");
});

test("reads typed dollars exactly, and refuses what is not a price", () => {
  assert.equal(parseDollars("0.3"), 300_000_000);
  assert.equal(parseDollars("$15"), 15_000_000_000);
  assert.equal(parseDollars("1,234.5"), 1_234_500_000_000);
  assert.equal(parseDollars("0.000000001"), 1);
  for (const bad of ["", "-1", "1e3", "0.0000000001", "abc", "1.2.3"])
    assert.equal(parseDollars(bad), null, bad);
});

test("round-trips a price through the edit field", () => {
  for (const nanos of [0, 1, 75_000_000, 3_000_000_000, 1_234_500_000_000]) {
    assert.equal(parseDollars(dollarsText(nanos)), nanos);
  }
});
