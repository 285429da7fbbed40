// Runs with Node's own test runner (`pnpm --filter @fleet/console test`).
import assert from "node:assert/strict";
import { test } from "node:test";
import { actionLabel } from "./labels.ts";

test("a gate's action names the tool and its action, or the tool once when the action is its call", () => {
  assert.equal(
    actionLabel({ tool_name: "github", action_name: "merge_pull_request" }),
    "github · merge_pull_request",
  );
  assert.equal(actionLabel({ tool_name: "memory_write", action_name: "memory_write" }), "memory_write");
  assert.equal(actionLabel({ tool_name: "deploy", action_name: "" }), "deploy");
});
