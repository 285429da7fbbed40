/**
 * After a database outage, pooled connections that were idle when the server went away may still look
 * open: a host or container that dies (or a failover to a new server at the same address) sends no FIN,
 * so postgres.js learns that a connection is dead only when the first statement sent on it is answered by
 * a reset. Without a retry, that statement's request answered 503 although the database was back, and
 * each idle connection cost one such request (issue 29 §6).
 *
 * A statement is retried on another connection (postgres.js recycles the dead one) when it failed because
 * its connection was lost, and retrying it cannot run anything twice:
 * - a plain read (`select …` calling nothing with a side effect): whether or not it reached the server;
 * - a transaction whose `begin` failed: its body never ran, so nothing of it was sent.
 * Any other write is not retried: its connection may have been lost after it committed, and the caller
 * answers 503 as before (docs/decisions/operations.md, "Database deadlines").
 */

/** Errors meaning the connection was lost (reset, closed, ended by the server), not that the SQL failed. */
export function connectionLost(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && /^(ECONNRESET|EPIPE|CONNECTION_CLOSED|57P01|57P02)$/.test(code);
}

/** A statement that only reads, so that running it twice changes nothing. */
export function readOnly(text: string): boolean {
  return (
    /^\s*select\b/i.test(text) &&
    !/\b(pg_notify|nextval|setval|pg_advisory\w*|for\s+(update|share|no\s+key\s+update|key\s+share))\b/i.test(
      text,
    )
  );
}

/**
 * Runs `attempt` again while it fails with a lost connection and `again(error)` allows it, at most
 * `retries` more times (one per pooled connection is enough: each failure retires a dead connection).
 */
export async function retryLost<T>(
  attempt: () => PromiseLike<T>,
  retries: number,
  again: (error: unknown) => boolean = () => true,
): Promise<T> {
  for (let left = retries; ; left--) {
    try {
      return await attempt();
    } catch (error) {
      if (left <= 0 || !connectionLost(error) || !again(error)) throw error;
    }
  }
}
