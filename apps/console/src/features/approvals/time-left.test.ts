// Runs with Node's own test runner (`pnpm --filter @fleet/console test`).
import assert from "node:assert/strict";
import { test } from "node:test";
import { standingSentence, whoLabel } from "./answer.ts";
import { formatDuration, urgency } from "./time-left.ts";

test("a duration reads in its two largest units", () => {
  assert.equal(formatDuration(0), "0s");
  assert.equal(formatDuration(-5_000), "0s");
  assert.equal(formatDuration(9_999), "9s");
  assert.equal(formatDuration(252_000), "4m 12s");
  assert.equal(formatDuration(3_900_000), "1h 05m");
  assert.equal(formatDuration(2 * 86_400_000 + 3 * 3_600_000 + 59_000), "2d 3h");
});

test("a gate is urgent under five minutes or a tenth of its time, overdue past its deadline", () => {
  const hour = 3_600_000;
  assert.equal(urgency(0, hour, hour - 10 * 60_000), "ok");
  assert.equal(urgency(0, hour, hour - 4 * 60_000), "soon");
  assert.equal(urgency(0, 24 * hour, 22 * hour), "soon");
  assert.equal(urgency(0, hour, hour), "overdue");
});

test("a lost race names whose answer stands", () => {
  const at = "2026-01-01 10:00:00 UTC";
  assert.equal(
    standingSentence({ outcome: "approved", resolvedBy: "api_key:k1", resolvedAt: 0 }, "u1", at),
    `Already approved by api_key:k1 at ${at}`,
  );
  assert.equal(
    standingSentence({ outcome: "denied", resolvedBy: "user:u1", resolvedAt: 0 }, "u1", at),
    `Already denied by you at ${at}`,
  );
  assert.equal(
    standingSentence({ outcome: "timed_out", resolvedBy: "system:timeout", resolvedAt: 0 }, "u1", at),
    `Already timed out at ${at}`,
  );
  assert.equal(whoLabel("system:fleet_killed", undefined), "its fleet being killed");
});

test("a lost race names whoever answered when the lists know them, else the principal as written", () => {
  const at = "2026-01-01 10:00:00 UTC";
  const words = (principal: string) =>
    ({ "user:u2": "ada@example.com", "api_key:k1": "API key deploy-bot" })[principal];
  assert.equal(
    standingSentence({ outcome: "approved", resolvedBy: "api_key:k1", resolvedAt: 0 }, "u1", at, words),
    `Already approved by API key deploy-bot at ${at}`,
  );
  assert.equal(whoLabel("user:u2", "u1", words), "ada@example.com");
  assert.equal(whoLabel("user:u1", "u1", words), "you");
  assert.equal(whoLabel("user:u3", "u1", words), "user:u3");
});
