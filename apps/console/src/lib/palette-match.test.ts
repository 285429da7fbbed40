import assert from "node:assert/strict";
import { test } from "node:test";
import { matchItems, matchScore } from "./palette-match.ts";

test("a label's start beats a word's start beats anywhere; every query word must be found", () => {
  assert.equal(matchScore({ label: "Billing-alpha" }, "bill"), 3);
  assert.equal(matchScore({ label: "Billing-alpha" }, "alp"), 2);
  assert.equal(matchScore({ label: "Billing-alpha" }, "lph"), 1);
  assert.equal(matchScore({ label: "Billing-alpha" }, "bil alp"), 3);
  assert.equal(matchScore({ label: "Billing-alpha" }, "bil zzz"), 0);
  assert.equal(matchScore({ label: "Audit log", keywords: "history" }, "hist"), 1);
  assert.equal(matchScore({ label: "Café triage" }, "CAFE"), 3);
  assert.equal(matchScore({ label: "Anything" }, "   "), 1);
});

test("matches keep group order, rank within a group, and cut each group", () => {
  const items = [
    { id: "1", group: "Pages", label: "Fleets" },
    { id: "2", group: "Fleets", label: "ops-fleet" },
    { id: "3", group: "Fleets", label: "fleet-a" },
    { id: "4", group: "Fleets", label: "fleet-b" },
    { id: "5", group: "Pages", label: "Runners" },
  ];
  assert.deepEqual(
    matchItems(items, "fleet", 2).map((item) => item.id),
    ["1", "3", "4"],
  );
  assert.deepEqual(
    matchItems(items, "", 10).map((item) => item.id),
    ["1", "5", "2", "3", "4"],
  );
});
