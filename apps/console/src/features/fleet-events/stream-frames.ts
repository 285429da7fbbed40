import { type StreamFrameKind, streamFrameKinds } from "@fleet/contracts/fleet-events/values";

/**
 * The frames of the event streams (`GET …/fleets/{fid}/events/stream`, `GET …/events/stream`), as the
 * wire carries them: `id: <frame_id>`, `event: <kind>`, `data: <json>`. The console reads what it shows
 * and tolerates fields it does not know.
 */
/** The kinds the stream names its frames by: the contract's list. */
export const runFrameKinds = streamFrameKinds;

export type RunFrameKind = StreamFrameKind;

export interface FramePayloads {
  /**
   * `webhook_id` (on `event_received`, `event_complete`, `gate_opened`, `gate_resolved` and a named
   * percent's `budget_alert`) is the id of the outgoing webhook event of the same happening: a delivery's
   * `webhook-id`. Absent from frames kept from before it was sent.
   */
  event_received: { event_type: string; actor: string; request_preview?: string; webhook_id?: string };
  event_complete: {
    status: string;
    webhook_id?: string;
    failure_label?: string;
    wall_ms?: number;
    tokens?: number;
    cost?: number;
  };
  gate_opened: {
    gate_id: string;
    action_id: string;
    gate_kind: string;
    tool_name: string;
    action_name: string;
    blast_radius: string;
    timeout_at: number;
    webhook_id?: string;
  };
  gate_resolved: {
    gate_id: string;
    action_id: string;
    outcome: string;
    resolved_by: string;
    resolved_at: number;
    webhook_id?: string;
  };
  chunk: { text: string };
  /** `call_id` ties a call's three frames together (absent from executors that call no model). */
  tool_call_started: { name: string; args_redacted?: unknown; call_id?: string };
  tool_call_progress: { name: string; elapsed_ms: number; call_id?: string };
  tool_call_completed: {
    name: string;
    ms: number;
    call_id?: string;
    /** `ok`, `error`, `refused` (outside the definition's reach), `denied` (a gate said no). */
    status?: string;
    /** The output's first and last few KiB (the tail absent when the head holds it all). */
    output_head?: string;
    output_tail?: string;
  };
  /** A fleet's spend this period crossed one of its alert percents (fleet-level: no event, no lease). */
  budget_alert: {
    period: string;
    percent: number;
    period_budget_nanos: number;
    period_spend_nanos: number;
    webhook_id?: string;
  };
}

/** A run frame: which run of which fleet it belongs to, when, and what happened. */
export type RunFrame = {
  [K in RunFrameKind]: {
    frame_id: string;
    kind: K;
    workspace_id: string;
    fleet_id: string;
    event_id: string;
    lease_id: string | null;
    at: number;
    payload: FramePayloads[K];
  };
}[RunFrameKind];

export interface HelloFrame {
  subscription_id: string;
  replay_window: { frames: number; seconds: number };
  last_frame_id: string | null;
}

const kinds = new Set<string>(runFrameKinds);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A run frame from its `event:` name and `data:` text, or null for one the console cannot read. */
export function readRunFrame(kind: string, data: string): RunFrame | null {
  if (!kinds.has(kind)) return null;
  let body: unknown;
  try {
    body = JSON.parse(data);
  } catch {
    return null;
  }
  if (
    !isObject(body) ||
    typeof body.frame_id !== "string" ||
    typeof body.event_id !== "string" ||
    typeof body.at !== "number" ||
    !isObject(body.payload)
  )
    return null;
  return { ...body, kind } as RunFrame;
}
