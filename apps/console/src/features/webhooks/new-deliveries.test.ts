import assert from "node:assert/strict";
import { test } from "node:test";
import { isNewer } from "./new-deliveries.ts";

test("a delivery is new when it was created after the top one shown, or at once with a later id", () => {
  const top = { created_at: 1000, id: "01a2-b" };
  assert.equal(isNewer({ created_at: 1001, id: "01a2-a" }, top), true);
  assert.equal(isNewer({ created_at: 1000, id: "01a2-c" }, top), true);
  assert.equal(isNewer({ created_at: 1000, id: "01a2-b" }, top), false);
  assert.equal(isNewer({ created_at: 999, id: "01a2-z" }, top), false);
});
