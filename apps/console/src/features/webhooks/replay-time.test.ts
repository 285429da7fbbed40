import assert from "node:assert/strict";
import { test } from "node:test";
import { fromLocalInput, localInputValue, sinceProblem } from "./replay-time.ts";

test("a time goes into the date-time input and back, to the minute, in the browser's zone", () => {
  const at = Date.UTC(2026, 10, 29, 14, 5, 42);
  const minute = at - (at % 60_000);
  assert.equal(fromLocalInput(localInputValue(at)), minute);
  assert.match(localInputValue(at), /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/);
});

test("what is not a date-time is no time", () => {
  assert.equal(fromLocalInput(""), null);
  assert.equal(fromLocalInput("yesterday"), null);
  assert.equal(fromLocalInput("2026-13-45T99:99"), null);
});

test("a replay starts in the past, at most seven days back", () => {
  const now = Date.UTC(2026, 10, 29, 12);
  const day = 86_400_000;
  assert.equal(sinceProblem(now - day, now), null);
  assert.equal(sinceProblem(null, now), "Choose a date and time.");
  assert.equal(sinceProblem(now + 60_000, now), "Choose a time in the past.");
  assert.match(sinceProblem(now - 8 * day, now) ?? "", /last 7 days/);
});
