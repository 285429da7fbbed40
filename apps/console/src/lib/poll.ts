/** How often a live list looks for news while all is well. */
export const POLL_MS = 5_000;
const MAX_BACKOFF_MS = 60_000;

/**
 * A query's next poll: every few seconds, and after failures longer each time, with jitter so many open
 * consoles do not retry in step.
 */
export function pollInterval(query: { state: { fetchFailureCount: number } }, every = POLL_MS): number {
  const failures = query.state.fetchFailureCount;
  if (failures === 0) return every;
  const ceiling = Math.min(MAX_BACKOFF_MS, every * 2 ** failures);
  return Math.round(ceiling / 2 + Math.random() * (ceiling / 2));
}
