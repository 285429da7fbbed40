import { WEBHOOK_REPLAY_WINDOW_MS } from "@fleet/contracts/webhook-endpoints/webhook-delivery";

const pad = (n: number) => String(n).padStart(2, "0");

/** Epoch ms as a date-time input's value ("2026-11-29T14:05") in the browser's zone, to the minute. */
export function localInputValue(epochMs: number): string {
  const d = new Date(epochMs);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** A date-time input's value (the browser's zone) as epoch ms; null when it is not a time. */
export function fromLocalInput(value: string): number | null {
  // Without an offset, the Date constructor reads a date-time as local time: the zone the input shows.
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?$/.test(value)) return null;
  const at = new Date(value).getTime();
  return Number.isNaN(at) ? null : at;
}

/** Why a replay cannot start there, said on the field before anything is sent; null when it can. */
export function sinceProblem(since: number | null, now: number): string | null {
  if (since === null) return "Choose a date and time.";
  if (since > now) return "Choose a time in the past.";
  if (since < now - WEBHOOK_REPLAY_WINDOW_MS)
    return `Choose a time within the last ${WEBHOOK_REPLAY_WINDOW_MS / 86_400_000} days: older events are not sent again.`;
  return null;
}
