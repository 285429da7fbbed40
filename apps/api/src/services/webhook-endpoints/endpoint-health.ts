import type { WebhookEndpointItem } from "@fleet/contracts";
import { type Database, resultRows, sql, type Tx } from "@fleet/db";

export type EndpointHealth = WebhookEndpointItem["health"];

const DAY_MS = 24 * 60 * 60 * 1000;

/** A new endpoint's: no attempts yet. */
export const NO_HEALTH: EndpointHealth = { attempts_24h: 0, success_rate_24h: null, last_failure: null };

/** Why an attempt failed, in a few words: the status it got, or why none came. */
export const failureReasonSql = sql`case when a.status is null then coalesce(a.error, 'no answer')
  else 'answered ' || a.status end`;

/**
 * The health of each endpoint, from its attempts, in one statement: the share answered 2xx over the last
 * 24 hours (null with none), and the latest failure ever. Each walks an index of webhook_attempts
 * (endpoint, at): the last day's attempts, and the failures' partial index backwards to the first.
 */
export async function healthOf(
  db: Database | Tx,
  endpointIds: readonly string[],
  now: number,
): Promise<Map<string, EndpointHealth>> {
  const health = new Map<string, EndpointHealth>();
  if (endpointIds.length === 0) return health;
  const rows = resultRows<{
    id: string;
    attempts: number | string;
    succeeded: number | string;
    failed_at: number | string | null;
    reason: string | null;
  }>(
    await db.execute(sql`
      select e.id, recent.attempts, recent.succeeded, failure.at as failed_at, failure.reason
      from unnest(${`{${endpointIds.join(",")}}`}::uuid[]) as e(id)
      cross join lateral (
        select count(*) as attempts, count(*) filter (where a.status between 200 and 299) as succeeded
        from webhook_attempts a where a.endpoint_id = e.id and a.at > ${now - DAY_MS}::bigint
      ) recent
      left join lateral (
        select a.at, ${failureReasonSql} as reason from webhook_attempts a
        where a.endpoint_id = e.id and (a.status is null or a.status not between 200 and 299)
        order by a.at desc limit 1
      ) failure on true`),
  );
  for (const row of rows) {
    const attempts = Number(row.attempts);
    health.set(row.id, {
      attempts_24h: attempts,
      success_rate_24h: attempts === 0 ? null : Number(row.succeeded) / attempts,
      last_failure:
        row.failed_at === null ? null : { at: Number(row.failed_at), reason: row.reason ?? "no answer" },
    });
  }
  return health;
}
