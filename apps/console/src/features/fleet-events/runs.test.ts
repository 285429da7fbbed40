import assert from "node:assert/strict";
import { test } from "node:test";
import { applyFrame, gatesOfRun, type LiveRun, runFromFrames, textAroundTools, waitingGate } from "./runs.ts";
import type { RunFrame } from "./stream-frames.ts";

const base = { workspace_id: "w", fleet_id: "f", event_id: "e" };
let n = 0;
function frame(kind: RunFrame["kind"], payload: unknown, lease: string | null = "lease-1"): RunFrame {
  n += 1;
  return { ...base, frame_id: String(n), kind, lease_id: lease, at: 1000 + n, payload } as RunFrame;
}

test("folds a run's frames into request, lease, tool calls with durations, answer and outcome", () => {
  const frames = [
    frame("event_received", { event_type: "chat", actor: "user:u", request_preview: "hi" }, null),
    frame("tool_call_started", { name: "search", args_redacted: {} }),
    frame("tool_call_progress", { name: "search", elapsed_ms: 400 }),
    frame("chunk", { text: "Hel" }),
    frame("tool_call_completed", { name: "search", ms: 900 }),
    frame("chunk", { text: "lo" }),
    frame("event_complete", { status: "processed", wall_ms: 1500, tokens: 42 }),
  ];
  let run: LiveRun | undefined;
  for (const f of frames) run = applyFrame(run, f);
  assert.equal(run?.requestPreview, "hi");
  assert.equal(run?.leaseId, "lease-1");
  assert.deepEqual(
    run?.tools.map((tool) => [tool.name, tool.elapsedMs, tool.ms]),
    [["search", 400, 900]],
  );
  assert.equal(run?.text, "Hello");
  assert.equal(run?.complete?.status, "processed");
});

test("two calls of one tool are told apart, and a gate keeps who answered it", () => {
  let run: LiveRun | undefined;
  for (const f of [
    frame("tool_call_started", { name: "sh" }),
    frame("tool_call_completed", { name: "sh", ms: 5 }),
    frame("tool_call_started", { name: "sh" }),
    frame("gate_opened", {
      gate_id: "g",
      action_id: "a",
      gate_kind: "tool",
      tool_name: "sh",
      action_name: "rm",
      blast_radius: "high",
      timeout_at: 0,
    }),
    frame("gate_resolved", {
      gate_id: "g",
      action_id: "a",
      outcome: "approved",
      resolved_by: "user:x",
      resolved_at: 1,
    }),
  ])
    run = applyFrame(run, f);
  assert.deepEqual(
    run?.tools.map((tool) => tool.ms),
    [5, undefined],
  );
  assert.deepEqual(run?.gates[0], {
    gateId: "g",
    toolName: "sh",
    actionName: "rm",
    blastRadius: "high",
    outcome: "approved",
    resolvedBy: "user:x",
  });
});

test("a run's gates come from its stored read and its frames; an answer from either stands", () => {
  const stored = [
    { gate_id: "g1", status: "approved", tool_name: "github", action_name: "merge", resolved_by: "user:u" },
    { gate_id: "g2", status: "pending", tool_name: "github", action_name: "deploy", resolved_by: null },
  ];
  // After a reload no frame was seen: the stored read alone says the run waits at g2.
  const reloaded = gatesOfRun(stored);
  assert.equal(waitingGate(reloaded)?.gateId, "g2");
  assert.equal(reloaded[0]?.outcome, "approved");
  // A frame answers g2 before the read is refetched; a stale frame never reopens g1.
  const live = [
    {
      gateId: "g1",
      toolName: "",
      actionName: "",
      blastRadius: "",
      outcome: undefined,
      resolvedBy: undefined,
    },
    { gateId: "g2", toolName: "", actionName: "", blastRadius: "", outcome: "denied", resolvedBy: "user:v" },
  ];
  const merged = gatesOfRun(stored, live);
  assert.equal(waitingGate(merged), undefined);
  assert.deepEqual(
    merged.map((gate) => [gate.gateId, gate.actionName, gate.outcome]),
    [
      ["g1", "merge", "approved"],
      ["g2", "deploy", "denied"],
    ],
  );
});

test("tool calls are matched by call id: parallel calls of one tool, arguments, status and output", () => {
  let run: LiveRun | undefined;
  for (const f of [
    frame("tool_call_started", { name: "http_request", call_id: "c1", args_redacted: '{"url":"a"}' }),
    frame("tool_call_started", { name: "http_request", call_id: "c2", args_redacted: '{"url":"b"}' }),
    frame("tool_call_progress", { name: "http_request", call_id: "c1", elapsed_ms: 2100 }),
    frame("tool_call_completed", {
      name: "http_request",
      call_id: "c2",
      ms: 30,
      status: "refused",
      output_head: "host b is not in network_hosts",
    }),
    frame("tool_call_completed", {
      name: "http_request",
      call_id: "c1",
      ms: 2500,
      output_head: "<html>",
      output_tail: "</html>",
    }),
  ])
    run = applyFrame(run, f);
  assert.deepEqual(
    run?.tools.map((tool) => [tool.callId, tool.args, tool.elapsedMs, tool.ms, tool.status, tool.outputTail]),
    [
      ["c1", '{"url":"a"}', 2100, 2500, "ok", "</html>"],
      ["c2", '{"url":"b"}', undefined, 30, "refused", undefined],
    ],
  );
});

test("keeps the model's text in the order it was written around its tool calls", () => {
  let run: LiveRun | undefined;
  for (const f of [
    frame("chunk", { text: "Let me read the board." }),
    frame("tool_call_started", { name: "http_request", call_id: "a" }),
    frame("tool_call_started", { name: "memory_search", call_id: "b" }),
    frame("tool_call_completed", { name: "http_request", call_id: "a", ms: 5 }),
    frame("chunk", { text: "\n\nIt is green; " }),
    frame("chunk", { text: "noting it." }),
    frame("tool_call_progress", { name: "memory_write", call_id: "c", elapsed_ms: 2000 }),
    frame("chunk", { text: "\n\nDone: all green." }),
  ]) {
    run = applyFrame(run, f);
  }
  assert.deepEqual(textAroundTools(run!), {
    before: ["Let me read the board.", "", "It is green; noting it."],
    after: "Done: all green.",
  });
  assert.deepEqual(textAroundTools({ text: "Only words.", tools: [] }), { before: [], after: "Only words." });
});

test("a run from its kept frames and the live ones: each frame once, in the live tail's order", () => {
  const at = (id: string, kind: RunFrame["kind"], payload: unknown) =>
    ({ ...base, frame_id: id, kind, lease_id: "lease-1", at: 1, payload }) as RunFrame;
  const stored = [at("9", "chunk", { text: "a" }), at("10", "chunk", { text: "b" })];
  // The live tail repeats a kept frame (it came while the kept ones were read), then goes on.
  const live = [
    at("10", "chunk", { text: "b" }),
    at("11", "chunk", { text: "c" }),
    at("100", "chunk", { text: "d" }),
  ];
  assert.equal(runFromFrames(stored, live)?.text, "abcd");
  assert.equal(runFromFrames([], [...live].reverse())?.text, "bcd");
  assert.equal(runFromFrames([], []), undefined);
});
