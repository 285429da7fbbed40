import assert from "node:assert/strict";
import { test } from "node:test";
import { countOf } from "./format.ts";

test("a count agrees with its noun: 1 event, 0 and 2 events", () => {
  assert.equal(countOf(1, "event"), "1 event");
  assert.equal(countOf(0, "event"), "0 events");
  assert.equal(countOf(2, "event"), "2 events");
  assert.equal(countOf(1024, "event"), "1,024 events");
  assert.equal(countOf(1, "match", "matches"), "1 match");
});
