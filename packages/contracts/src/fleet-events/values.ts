// Plain values of fleet events, without the schema library: the console's browser code imports them
// from here, so a page that only needs a list of statuses does not load zod (docs/decisions/console-performance.md, "A page's first data comes with its HTML").

export const fleetEventTypes = ["chat", "webhook", "cron", "continuation"] as const;
export const fleetEventStatuses = ["received", "processed", "fleet_error", "gate_blocked"] as const;

/** The statuses of a finished run: only these can be run again. */
export const retryableEventStatuses = ["processed", "fleet_error"] as const;

/** The frame kinds a live-tail stream carries, besides its own `hello`, `heartbeat`, `reset`, `access_revoked`. */
export const streamFrameKinds = [
  "event_received",
  "event_complete",
  "gate_opened",
  "gate_resolved",
  "chunk",
  "tool_call_started",
  "tool_call_progress",
  "tool_call_completed",
  "budget_alert",
] as const;
export type StreamFrameKind = (typeof streamFrameKinds)[number];

const DURATION = /^(\d{1,9})(s|m|h|d)$/;
const UNIT_MS = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/**
 * `since`: epoch milliseconds, an RFC 3339 time, or a duration back from now (`15m`, `2h`, `7d`).
 * Returns the epoch-ms lower bound, or null when the text is none of these.
 */
export function resolveSince(text: string, now: number): number | null {
  if (/^\d{1,15}$/.test(text)) return Number(text);
  const duration = DURATION.exec(text);
  if (duration) return now - Number(duration[1]) * UNIT_MS[duration[2] as keyof typeof UNIT_MS];
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/i.test(text)) {
    const ms = Date.parse(text);
    return Number.isNaN(ms) ? null : ms;
  }
  return null;
}
