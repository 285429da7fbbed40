import assert from "node:assert/strict";
import { test } from "node:test";
import { attemptOutcome, attemptWords, deliveryStatusOf, deliveryTypeOf } from "./delivery.ts";

test("an attempt in words: the status it got, or why none came, and how long it took", () => {
  assert.equal(attemptWords({ status_code: 503, error: null, latency_ms: 120 }), "answered 503 in 120 ms");
  assert.equal(
    attemptWords({ status_code: null, error: "ECONNREFUSED", latency_ms: 3 }),
    "ECONNREFUSED after 3 ms",
  );
  assert.equal(attemptOutcome({ status_code: null, error: null }), "no answer");
});

test("the log's filters from the URL: known values only", () => {
  assert.equal(deliveryStatusOf("failed"), "failed");
  assert.equal(deliveryStatusOf("FAILED"), undefined);
  assert.equal(deliveryStatusOf(undefined), undefined);
  assert.equal(deliveryTypeOf("ping"), "ping");
  assert.equal(deliveryTypeOf("gate.opened"), "gate.opened");
  assert.equal(deliveryTypeOf("gate.closed"), undefined);
});
