/**
 * The wait after each failed attempt, before jitter: 5 s, 1 min, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h,
 * 20 h. Eleven attempts over about 71.6 hours (three days); the eleventh failure gives the delivery up.
 */
export const WEBHOOK_RETRY_DELAYS_MS = [
  5_000, 60_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 50_400_000, 72_000_000, 72_000_000,
] as const;
export const WEBHOOK_MAX_ATTEMPTS = WEBHOOK_RETRY_DELAYS_MS.length + 1;

/** Each wait is spread by up to a fifth either way, so receivers that failed together are not retried together. */
const JITTER = 0.2;

/** The wait after failed attempt `attempt` (1-based), jittered; `random` in [0, 1). */
export function retryDelayMs(attempt: number, random: number = Math.random()): number {
  const base = WEBHOOK_RETRY_DELAYS_MS[Math.min(attempt, WEBHOOK_RETRY_DELAYS_MS.length) - 1]!;
  return Math.round(base * (1 - JITTER + 2 * JITTER * random));
}
