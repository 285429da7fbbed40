import { Problem } from "@fleet/contracts";
import { eq, sql, userCodeAttempts } from "@fleet/db";
import type { ServiceContext } from "../shared/context.ts";

/** Wrong user codes one person may enter in a window before entering codes is refused. */
export const WRONG_CODES_ALLOWED = 5;
export const WRONG_CODES_WINDOW_MS = 15 * 60_000;

/**
 * Runs `attempt` (a lookup or answer by user code) under the person's guard against guessing codes. The
 * attempt is counted before it runs, atomically against the limit, so concurrent guesses cannot pass
 * it together; unless it found no sign-in (`null`: 404 UZ-AUTH-016), the count is handed back. Past the
 * limit: 429 UZ-AUTH-018.
 */
export async function guardUserCode<T>(
  ctx: ServiceContext,
  userId: string,
  attempt: () => Promise<T | null>,
): Promise<T> {
  const now = ctx.now();
  const windowOpen = now - WRONG_CODES_WINDOW_MS;
  const stale = sql`${userCodeAttempts.windowStartedAt} <= ${windowOpen}`;
  const counted = await ctx.db
    .insert(userCodeAttempts)
    .values({ userId, windowStartedAt: now, failures: 1 })
    .onConflictDoUpdate({
      target: userCodeAttempts.userId,
      set: {
        failures: sql`case when ${stale} then 1 else ${userCodeAttempts.failures} + 1 end`,
        windowStartedAt: sql`case when ${stale} then ${now}::bigint else ${userCodeAttempts.windowStartedAt} end`,
      },
      setWhere: sql`${stale} or ${userCodeAttempts.failures} < ${WRONG_CODES_ALLOWED}`,
    })
    .returning({ failures: userCodeAttempts.failures });
  if (counted.length === 0) {
    const [row] = await ctx.db
      .select({ startedAt: userCodeAttempts.windowStartedAt })
      .from(userCodeAttempts)
      .where(eq(userCodeAttempts.userId, userId));
    const waitMs = (row?.startedAt ?? now) + WRONG_CODES_WINDOW_MS - now;
    throw new Problem("UZ-AUTH-018", {
      detail: `${WRONG_CODES_ALLOWED} wrong sign-in codes were entered in 15 minutes; try again later.`,
      headers: { "retry-after": String(Math.max(1, Math.ceil(waitMs / 1000))) },
    });
  }
  let found = true;
  try {
    const result = await attempt();
    if (result !== null) return result;
    found = false;
    throw new Problem("UZ-AUTH-016", {
      detail: "No command-line sign-in waits with this code: it was mistyped, has expired, or was answered.",
    });
  } finally {
    if (found)
      await ctx.db
        .update(userCodeAttempts)
        .set({ failures: sql`greatest(${userCodeAttempts.failures} - 1, 0)` })
        .where(eq(userCodeAttempts.userId, userId));
  }
}
