// Runs with Node's own test runner (`pnpm --filter @fleet/console test`).
import assert from "node:assert/strict";
import { test } from "node:test";
import { formatMs, type RunFrame, runSteps } from "./run-steps.ts";

let id = 0;
const frame = (kind: RunFrame["kind"], payload: Record<string, unknown>): RunFrame => ({
  frame_id: String(++id),
  lease_id: "01900000-0000-7000-8000-000000000001",
  kind,
  at: 1_700_000_000_000 + id,
  payload,
});

test("folds a run's frames into tool calls with durations, the joined answer and other lines", () => {
  const steps = runSteps([
    frame("tool_call_started", { name: "search", args_redacted: "{}" }),
    frame("tool_call_progress", { name: "search", elapsed_ms: 120 }),
    frame("chunk", { text: "Found 3 " }),
    frame("chunk", { text: "incidents" }),
    frame("tool_call_completed", { name: "search", ms: 240 }),
    frame("tool_call_completed", { name: "lookup", ms: 5 }),
    frame("gate_resolved", { outcome: "approved", resolved_by: "ana" }),
  ]);
  assert.deepEqual(
    steps.map((step) => step.type),
    ["tool", "answer", "tool", "note"],
  );
  assert.deepEqual(steps[0], {
    type: "tool",
    key: steps[0]!.key,
    at: steps[0]!.at,
    name: "search",
    args: "{}",
    progress: [120],
    ms: 240,
  });
  assert.equal(steps[1]?.type === "answer" && steps[1].text, "Found 3 incidents");
  assert.equal(steps[2]?.type === "tool" && steps[2].ms, 5);
  assert.equal(steps[3]?.type === "note" && steps[3].text, "Approval gate approved by ana");
});

test("a started call with no completion stays open; durations read plainly", () => {
  const [step] = runSteps([frame("tool_call_started", { name: "x", args_redacted: "" })]);
  assert.equal(step?.type === "tool" && step.ms, null);
  assert.equal(formatMs(240), "240 ms");
  assert.equal(formatMs(3_200), "3.2 s");
  assert.equal(formatMs(125_000), "2 min 5 s");
});
