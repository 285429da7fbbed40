import type { FramePayloads, RunFrame } from "./stream-frames.ts";

export interface ToolCallView {
  /** The model's id of the call; undefined from executors that call no model (matched by name then). */
  callId: string | undefined;
  name: string;
  startedAt: number;
  /** Its arguments as the runner reported them, secrets masked. */
  args: string | undefined;
  /** The latest progress report while it runs. */
  elapsedMs: number | undefined;
  /** Its duration once completed. */
  ms: number | undefined;
  status: string | undefined;
  outputHead: string | undefined;
  outputTail: string | undefined;
  /**
   * How much of the run's text had arrived when the call began: the text before it is what the model wrote
   * before calling it, shown above its step (textBefore), and the answer is the text after the last call.
   */
  textAt: number;
}

function newCall(name: string, callId: string | undefined, at: number, textAt: number): ToolCallView {
  return {
    textAt,
    callId,
    name,
    startedAt: at,
    args: undefined,
    elapsedMs: undefined,
    ms: undefined,
    status: undefined,
    outputHead: undefined,
    outputTail: undefined,
  };
}

/** Arguments as text: the runner sends them as a JSON text; anything else is shown as JSON. */
function argsText(args: unknown): string | undefined {
  if (args === undefined || args === null) return undefined;
  return typeof args === "string" ? args : JSON.stringify(args);
}

export interface GateView {
  gateId: string;
  toolName: string;
  actionName: string;
  blastRadius: string;
  outcome: string | undefined;
  resolvedBy: string | undefined;
}

/** A run as its frames told it: request, lease, tool calls, answer so far, outcome. */
export interface LiveRun {
  eventId: string;
  fleetId: string;
  receivedAt: number | undefined;
  eventType: string | undefined;
  actor: string | undefined;
  requestPreview: string | undefined;
  leaseId: string | null;
  leasedAt: number | undefined;
  tools: ToolCallView[];
  gates: GateView[];
  text: string;
  complete: FramePayloads["event_complete"] | undefined;
  completedAt: number | undefined;
  updatedAt: number;
}

function emptyRun(frame: RunFrame): LiveRun {
  return {
    eventId: frame.event_id,
    fleetId: frame.fleet_id,
    receivedAt: undefined,
    eventType: undefined,
    actor: undefined,
    requestPreview: undefined,
    leaseId: null,
    leasedAt: undefined,
    tools: [],
    gates: [],
    text: "",
    complete: undefined,
    completedAt: undefined,
    updatedAt: frame.at,
  };
}

/** The run with one more frame folded in (a new object; the input is not changed). */
export function applyFrame(previous: LiveRun | undefined, frame: RunFrame): LiveRun {
  const run: LiveRun = { ...(previous ?? emptyRun(frame)), updatedAt: frame.at };
  if (frame.lease_id !== null && run.leaseId === null) {
    run.leaseId = frame.lease_id;
    run.leasedAt = frame.at;
  }
  switch (frame.kind) {
    case "event_received":
      run.receivedAt = frame.at;
      run.eventType = frame.payload.event_type;
      run.actor = frame.payload.actor;
      run.requestPreview = frame.payload.request_preview;
      break;
    case "event_complete":
      run.complete = frame.payload;
      run.completedAt = frame.at;
      break;
    case "chunk":
      run.text += frame.payload.text;
      break;
    case "tool_call_started": {
      const { name, call_id: callId } = frame.payload;
      const started = {
        ...newCall(name, callId, frame.at, run.text.length),
        args: argsText(frame.payload.args_redacted),
      };
      // A call id seen before (a progress frame that overtook its start) is that call's.
      const index = callId === undefined ? -1 : run.tools.findIndex((tool) => tool.callId === callId);
      run.tools =
        index === -1
          ? [...run.tools, started]
          : run.tools.map((tool, at) =>
              at === index ? { ...tool, args: started.args, startedAt: frame.at } : tool,
            );
      break;
    }
    case "tool_call_progress":
    case "tool_call_completed": {
      // By call id when the frame has one; else the latest call of that name still running. A report for
      // a call not seen starts one.
      const { name, call_id: callId } = frame.payload;
      const index =
        callId !== undefined
          ? run.tools.findIndex((tool) => tool.callId === callId)
          : run.tools.findLastIndex((tool) => tool.name === name && tool.ms === undefined);
      const current: ToolCallView =
        index === -1 ? newCall(name, callId, frame.at, run.text.length) : run.tools[index]!;
      const next: ToolCallView =
        frame.kind === "tool_call_progress"
          ? { ...current, elapsedMs: frame.payload.elapsed_ms }
          : {
              ...current,
              ms: frame.payload.ms,
              status: frame.payload.status ?? "ok",
              outputHead: frame.payload.output_head,
              outputTail: frame.payload.output_tail,
            };
      run.tools =
        index === -1 ? [...run.tools, next] : run.tools.map((tool, at) => (at === index ? next : tool));
      break;
    }
    case "gate_opened":
      run.gates = [
        ...run.gates.filter((gate) => gate.gateId !== frame.payload.gate_id),
        {
          gateId: frame.payload.gate_id,
          toolName: frame.payload.tool_name,
          actionName: frame.payload.action_name,
          blastRadius: frame.payload.blast_radius,
          outcome: undefined,
          resolvedBy: undefined,
        },
      ];
      break;
    case "gate_resolved": {
      const known = run.gates.some((gate) => gate.gateId === frame.payload.gate_id);
      const resolved = { outcome: frame.payload.outcome, resolvedBy: frame.payload.resolved_by };
      run.gates = known
        ? run.gates.map((gate) => (gate.gateId === frame.payload.gate_id ? { ...gate, ...resolved } : gate))
        : [
            ...run.gates,
            { gateId: frame.payload.gate_id, toolName: "", actionName: "", blastRadius: "", ...resolved },
          ];
      break;
    }
  }
  return run;
}

/**
 * One run from the frames the API kept and those the page saw live since, each frame once (by its id, the
 * live tail's order), folded in frame order: a reload shows the steps the run took before it.
 */
export function runFromFrames(stored: readonly RunFrame[], live: readonly RunFrame[]): LiveRun | undefined {
  const byId = new Map<string, RunFrame>();
  for (const frame of [...stored, ...live]) byId.set(frame.frame_id, frame);
  // Decimal ids: a shorter one is smaller, and ids of one length sort as text.
  const ordered = [...byId.values()].sort(
    (a, b) =>
      a.frame_id.length - b.frame_id.length ||
      (a.frame_id < b.frame_id ? -1 : a.frame_id > b.frame_id ? 1 : 0),
  );
  return ordered.reduce<LiveRun | undefined>((run, frame) => applyFrame(run, frame), undefined);
}

/** How many runs a page keeps in memory; the oldest go first. */
const KEPT_RUNS = 200;

/** The runs map with a frame folded in, bounded. */
export function withFrame(runs: ReadonlyMap<string, LiveRun>, frame: RunFrame): Map<string, LiveRun> {
  const next = new Map(runs);
  next.set(frame.event_id, applyFrame(runs.get(frame.event_id), frame));
  while (next.size > KEPT_RUNS) next.delete(next.keys().next().value!);
  return next;
}

/** A gate as the event's read stores it. */
export interface StoredGate {
  gate_id: string;
  status: string;
  tool_name: string;
  action_name: string;
  resolved_by: string | null;
}

/**
 * A run's gates from both sources: the event's read (stored, so a reload or a later visitor sees them)
 * and the frames seen since the page opened (newer while the read is not yet refetched). An answer from
 * either stands: a gate never returns to pending. In the order they opened.
 */
export function gatesOfRun(
  stored: readonly StoredGate[] | undefined,
  live: readonly GateView[] = [],
): GateView[] {
  const gates = new Map<string, GateView>();
  for (const gate of stored ?? [])
    gates.set(gate.gate_id, {
      gateId: gate.gate_id,
      toolName: gate.tool_name,
      actionName: gate.action_name,
      blastRadius: "",
      outcome: gate.status === "pending" ? undefined : gate.status,
      resolvedBy: gate.resolved_by ?? undefined,
    });
  for (const gate of live) {
    const known = gates.get(gate.gateId);
    gates.set(
      gate.gateId,
      known === undefined
        ? gate
        : {
            ...known,
            toolName: known.toolName || gate.toolName,
            actionName: known.actionName || gate.actionName,
            outcome: known.outcome ?? gate.outcome,
            resolvedBy: known.resolvedBy ?? gate.resolvedBy,
          },
    );
  }
  return [...gates.values()];
}

/** The gate a run waits at, if any: the last one opened and not answered. */
export function waitingGate(gates: readonly GateView[]): GateView | undefined {
  return gates.findLast((gate) => gate.outcome === undefined);
}

/**
 * The run's text in the order it was written around its tool calls: what the model wrote before each call
 * (`before[i]`, trimmed, empty when nothing), and after the last one (`after`, the answer so far).
 */
export function textAroundTools(run: Pick<LiveRun, "text" | "tools">): { before: string[]; after: string } {
  let from = 0;
  const before = run.tools.map((tool) => {
    const at = Math.min(Math.max(tool.textAt, from), run.text.length);
    const piece = run.text.slice(from, at);
    from = at;
    return piece.trim();
  });
  // The blank line the gateway puts before a later step's text is the step's gap, not the answer's.
  return { before, after: run.text.slice(from).trimStart() };
}
