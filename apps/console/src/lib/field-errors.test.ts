import assert from "node:assert/strict";
import { test } from "node:test";
import { withoutError } from "./field-errors.ts";

test("a corrected field loses its problem and keeps the others'", () => {
  const errors = { cron: "Cron has an invalid minute value.", message: "Write a message." };
  assert.deepEqual(withoutError(errors, "cron"), { message: "Write a message." });
  assert.deepEqual(errors, { cron: "Cron has an invalid minute value.", message: "Write a message." });
});

test("a field without a problem changes nothing (the same object)", () => {
  const errors: Partial<Record<"cron" | "message", string>> = { message: "Write a message." };
  assert.equal(withoutError(errors, "cron"), errors);
});
