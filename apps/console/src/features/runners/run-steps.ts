import type { RouterOutputs } from "../../lib/trpc.ts";

export type RunFrame = RouterOutputs["runners"]["listLeaseFrames"]["items"][number];

/** One line of a run's review, built from its frames in the order they were published. */
export type RunStep =
  | {
      type: "tool";
      key: string;
      at: number;
      name: string;
      args: string | null;
      /** Progress reports while the call ran, in ms elapsed. */
      progress: number[];
      /** The call's duration once it completed; null while no completion was published. */
      ms: number | null;
    }
  | { type: "answer"; key: string; at: number; text: string }
  | { type: "note"; key: string; at: number; text: string };

const text = (value: unknown): string | null => (typeof value === "string" ? value : null);
const int = (value: unknown): number | null => (typeof value === "number" ? value : null);

function note(frame: RunFrame): string {
  const p = frame.payload;
  switch (frame.kind) {
    case "gate_opened":
      return `Approval gate opened: ${text(p.gate_kind) ?? "gate"}${p.tool_name ? ` for ${text(p.tool_name)}` : ""}${
        p.action_name ? ` · ${text(p.action_name)}` : ""
      }`;
    case "gate_resolved":
      return `Approval gate ${text(p.outcome) ?? "resolved"}${p.resolved_by ? ` by ${text(p.resolved_by)}` : ""}`;
    case "event_complete":
      return `Run reported ${text(p.status) ?? "done"}${p.failure_label ? `: ${text(p.failure_label)}` : ""}`;
    default:
      return frame.kind.replaceAll("_", " ");
  }
}

/**
 * Folds a run's frames into steps: a tool call from its start to its completion (matched by tool name,
 * the latest open call of that name), the answer text joined from consecutive chunks, and a line for
 * anything else. A completion or progress whose start was not kept still shows as a call of its own.
 */
export function runSteps(frames: readonly RunFrame[]): RunStep[] {
  const steps: RunStep[] = [];
  const open = new Map<string, Extract<RunStep, { type: "tool" }>>();
  const toolFor = (frame: RunFrame, name: string) => {
    let step = open.get(name);
    if (step === undefined) {
      step = { type: "tool", key: frame.frame_id, at: frame.at, name, args: null, progress: [], ms: null };
      steps.push(step);
      open.set(name, step);
    }
    return step;
  };
  for (const frame of frames) {
    const p = frame.payload;
    const name = text(p.name) ?? "tool";
    if (frame.kind === "chunk") {
      const last = steps.at(-1);
      if (last?.type === "answer") last.text += text(p.text) ?? "";
      else steps.push({ type: "answer", key: frame.frame_id, at: frame.at, text: text(p.text) ?? "" });
    } else if (frame.kind === "tool_call_started") {
      open.delete(name);
      toolFor(frame, name).args = text(p.args_redacted);
    } else if (frame.kind === "tool_call_progress") {
      const elapsed = int(p.elapsed_ms);
      if (elapsed !== null) toolFor(frame, name).progress.push(elapsed);
    } else if (frame.kind === "tool_call_completed") {
      toolFor(frame, name).ms = int(p.ms);
      open.delete(name);
    } else {
      steps.push({ type: "note", key: frame.frame_id, at: frame.at, text: note(frame) });
    }
  }
  return steps;
}

/** "240 ms", "3.2 s", "2 min 5 s". */
export function formatMs(ms: number): string {
  if (ms < 1_000) return `${ms} ms`;
  if (ms < 60_000) return `${(ms / 1_000).toFixed(1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1_000)} s`;
}
