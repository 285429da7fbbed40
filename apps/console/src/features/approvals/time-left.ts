/** "4m 12s", "1h 05m", "2d 3h": a duration short enough for a table cell, precise enough to act on. */
export function formatDuration(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  const days = Math.floor(seconds / 86_400);
  const hours = Math.floor((seconds % 86_400) / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const rest = seconds % 60;
  if (days > 0) return `${days}d ${hours}h`;
  if (hours > 0) return `${hours}h ${String(minutes).padStart(2, "0")}m`;
  if (minutes > 0) return `${minutes}m ${String(rest).padStart(2, "0")}s`;
  return `${rest}s`;
}

/** How close a pending gate is to its auto-deny: under five minutes, or a tenth of its time, is urgent. */
export function urgency(requestedAt: number, timeoutAt: number, now: number): "overdue" | "soon" | "ok" {
  const left = timeoutAt - now;
  if (left <= 0) return "overdue";
  return left < 5 * 60_000 || left < (timeoutAt - requestedAt) / 10 ? "soon" : "ok";
}
