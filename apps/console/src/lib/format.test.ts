import assert from "node:assert/strict";
import { test } from "node:test";
import { formatCost, formatCount, formatRetention } from "./format.ts";

const intl = new Intl.NumberFormat("en");

test("formatCount writes what Intl.NumberFormat('en') writes", () => {
  const values = [
    0,
    1,
    7,
    12,
    999,
    1_000,
    1_001,
    9_999,
    12_345,
    100_000,
    999_999,
    1_000_000,
    1_234_567,
    2 ** 31,
    Number.MAX_SAFE_INTEGER,
    1e20,
    -1,
    -1_000,
    -1_234_567,
    0.5,
    1.25,
    1_234.5678,
    0.0004,
    0.0005,
    0.0015,
    2.9999,
    -1_234.5,
    999_999.9996,
    Number.POSITIVE_INFINITY,
    Number.NEGATIVE_INFINITY,
    Number.NaN,
  ];
  for (let n = 0; n < 2_000; n++) values.push(Math.floor(Math.random() * 10 ** (n % 16)));
  for (const value of values) assert.equal(formatCount(value), intl.format(value), `for ${value}`);
});

test("formatCount writes no minus sign on nothing (Intl writes -0)", () => {
  assert.equal(formatCount(-0), "0");
  assert.equal(formatCount(-0.0004), "0");
});

test("formatCost keeps a fraction of a cent visible", () => {
  assert.equal(formatCost(0), "$0");
  assert.equal(formatCost(1_500_000_000), "$1.50");
  assert.equal(formatCost(1_234_000), "$0.00123");
});

test("formatRetention says hours below two days and whole days above", () => {
  assert.equal(formatRetention(47), "47 hours");
  assert.equal(formatRetention(48), "2 days");
  assert.equal(formatRetention(168), "7 days");
});
