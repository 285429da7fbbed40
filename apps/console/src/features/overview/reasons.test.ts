import assert from "node:assert/strict";
import { test } from "node:test";
import { explainWait, formatSpan, formatTotal, type WaitingItem } from "./reasons.ts";

const event: WaitingItem = {
  event_id: "e",
  fleet_id: "f",
  fleet_name: "deploy bot",
  fleet_status: "paused",
  event_type: "chat",
  actor: "user:u",
  created_at: 0,
  waiting_ms: 0,
  reason: "fleet_paused",
  required_labels: ["gpu", "eu"],
};

test("a waiting event's reason is said in words with a link to the place that fixes it", () => {
  assert.deepEqual(explainWait(event, "w"), {
    why: "The fleet is paused: it takes no work until it is resumed.",
    fix: { label: "Open deploy bot", href: "/fleets/f?workspace=w" },
  });
  assert.equal(
    explainWait({ ...event, reason: "labels_unmatched" }, "w").why,
    "No online runner carries the labels this fleet needs: “gpu”, “eu”.",
  );
  assert.equal(explainWait({ ...event, reason: "no_runner_online" }, "w").fix.href, "/runners");
  assert.equal(explainWait({ ...event, reason: "budget_spent" }, "w").fix.href, "/billing?fleet=f");
});

test("spans read in minutes, hours and days; a capped total says so", () => {
  assert.equal(formatSpan(10_000), "under a minute");
  assert.equal(formatSpan(4 * 60_000), "4 min");
  assert.equal(formatSpan(125 * 60_000), "2 h 5 min");
  assert.equal(formatSpan(72 * 3_600_000), "3 d");
  assert.equal(formatSpan(-5), "under a minute");
  assert.equal(formatTotal(1000, 1000), "1000+");
  assert.equal(formatTotal(3, 1000), "3");
});
