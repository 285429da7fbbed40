import assert from "node:assert/strict";
import { test } from "node:test";
import { expiryWords } from "./lease-expiry.ts";

test("a lease renewed a moment ago expires in seconds, never 'just now'", () => {
  const now = Date.UTC(2026, 10, 28, 12);
  assert.equal(expiryWords(now + 30_000, now), "in 30 seconds");
  assert.equal(expiryWords(now + 1_200, now), "in 1 second");
  assert.equal(expiryWords(now + 90_000, now), "in 2 minutes");
  assert.equal(expiryWords(now + 60_000, now), "in 1 minute");
  assert.equal(expiryWords(now, now), "now");
  assert.equal(expiryWords(now - 5_000, now), "5 seconds ago (overdue)");
});
