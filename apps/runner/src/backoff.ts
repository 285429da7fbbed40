/**
 * The delay before retry number `attempt` (0-based): exponential from `baseMs`, capped at `capMs`, with
 * "equal jitter" (half fixed, half random) so runners that failed together do not retry together, yet
 * never retry at once.
 */
export function backoffDelay(attempt: number, baseMs = 250, capMs = 10_000, random = Math.random): number {
  const ceiling = Math.min(capMs, baseMs * 2 ** Math.min(attempt, 20));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

/** Resolves after `ms`, or as soon as `signal` aborts (it never rejects). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });
}
