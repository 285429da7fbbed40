import assert from "node:assert/strict";
import { test } from "node:test";
import {
  disabledWords,
  healthTone,
  healthWords,
  percentOf,
  serviceDisable,
  serviceDisabled,
} from "./health.ts";

test("the 24 hours in words: a share of the attempts, or none", () => {
  assert.equal(healthWords({ attempts_24h: 120, success_rate_24h: 0.98 }), "98 % of 120 attempts");
  assert.equal(healthWords({ attempts_24h: 1, success_rate_24h: 1 }), "100 % of 1 attempt");
  assert.equal(healthWords({ attempts_24h: 0, success_rate_24h: null }), "no attempts in 24 h");
  assert.equal(healthWords({ attempts_24h: 2048, success_rate_24h: 0 }), "0 % of 2,048 attempts");
});

test("a share never rounds to all or nothing when it is neither", () => {
  assert.equal(percentOf(119 / 120), 99);
  assert.equal(percentOf(1 / 1000), 1);
  assert.equal(percentOf(1), 100);
  assert.equal(percentOf(0), 0);
  assert.equal(percentOf(0.5), 50);
});

test("the tone follows the share: none is neutral, most good is success", () => {
  assert.equal(healthTone({ attempts_24h: 0, success_rate_24h: null }), "neutral");
  assert.equal(healthTone({ attempts_24h: 100, success_rate_24h: 0.97 }), "success");
  assert.equal(healthTone({ attempts_24h: 100, success_rate_24h: 0.6 }), "warning");
  assert.equal(healthTone({ attempts_24h: 100, success_rate_24h: 0.1 }), "danger");
});

test("why an endpoint is off: the service's reasons in words, or the person's choice", () => {
  assert.equal(disabledWords({ enabled: true, disabled_reason: null }), null);
  assert.equal(disabledWords({ enabled: false, disabled_reason: null }), "Disabled");
  assert.equal(
    disabledWords({ enabled: false, disabled_reason: "failing" }),
    "Disabled by the service: failing for 5 days",
  );
  assert.equal(
    disabledWords({ enabled: false, disabled_reason: "gone" }),
    "Disabled by the service: the receiver answered 410 Gone",
  );
});

test("a service disable says why and since when; a person's, or an enabled endpoint, is none", () => {
  const gone = { enabled: false, disabled_reason: "gone" as const, disabled_at: 1_000 };
  assert.deepEqual(serviceDisable(gone), {
    reason: "gone",
    why: "its receiver answered 410 Gone: the endpoint said it is gone",
    at: 1_000,
  });
  assert.match(
    serviceDisable({ enabled: false, disabled_reason: "failing", disabled_at: 2_000 })!.why,
    /failing for 5 days/,
  );
  assert.equal(serviceDisable({ enabled: false, disabled_reason: null, disabled_at: null }), null);
  assert.equal(serviceDisable({ enabled: true, disabled_reason: null, disabled_at: null }), null);
});

test("the service-disabled endpoints, latest first, without the enabled or the person-disabled", () => {
  const endpoints = [
    { id: "a", enabled: false, disabled_reason: "gone" as const, disabled_at: 1_000 },
    { id: "b", enabled: true, disabled_reason: null, disabled_at: null },
    { id: "c", enabled: false, disabled_reason: null, disabled_at: null },
    { id: "d", enabled: false, disabled_reason: "failing" as const, disabled_at: 3_000 },
  ];
  assert.deepEqual(
    serviceDisabled(endpoints).map((endpoint) => endpoint.id),
    ["d", "a"],
  );
});
