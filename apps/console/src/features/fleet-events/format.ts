import { formatCount } from "../../lib/format.ts";

/** Milliseconds as the unit a person reads best: 850 ms, 12.4 s, 3 min 5 s. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${formatCount(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const minutes = Math.floor(ms / 60_000);
  const seconds = Math.round((ms % 60_000) / 1000);
  return seconds === 0 ? `${minutes} min` : `${minutes} min ${seconds} s`;
}
