// Runs with Node's own test runner, as the console has no unit-test setup of its own:
//   node --import tsx --test apps/console/src/lib/cron-text.test.ts
import assert from "node:assert/strict";
import { test } from "node:test";
import { describeCron } from "./cron-text.ts";

const cases: [string, string][] = [
  ["* * * * *", "Every minute"],
  ["*/5 * * * *", "Every 5 minutes"],
  ["0 * * * *", "Every hour, on the hour"],
  ["15 * * * *", "Every hour at 15 past"],
  ["0 9 * * *", "At 09:00, every day"],
  ["0 9 * * 1-5", "At 09:00, Monday through Friday"],
  ["30 8,12 * * *", "At 08:30 and 12:30, every day"],
  ["0 16 * * 5", "At 16:00, on Friday"],
  ["0 22 * * 7", "At 22:00, on Sunday"],
  ["0 9 * * MON,WED,FRI", "At 09:00, on Monday, Wednesday and Friday"],
  ["*/15 9-17 * * 1-5", "Every 15 minutes, between 09:00 and 17:59, Monday through Friday"],
  ["0 */2 * * *", "Every 2 hours, on the hour"],
  ["0 0 1 * *", "At 00:00, on day 1 of the month"],
  ["0 12 * JAN-MAR *", "At 12:00, in January through March"],
  // Day of month and day of week together fire on either.
  ["0 9 1 * 1", "At 09:00, on day 1 of the month or on Monday"],
];

test("describes five-field cron in words", () => {
  for (const [expression, words] of cases) assert.equal(describeCron(expression), words, expression);
});

test("has no words for what the API would refuse", () => {
  for (const expression of ["", "@daily", "* * * *", "60 * * * *", "0 9 * * 1-", "0 0 0 * * *"]) {
    assert.equal(describeCron(expression), null, expression);
  }
});
