import { WEBHOOK_FAILING_DAYS } from "@fleet/contracts/webhook-endpoints/webhook-delivery";
import { resultRows, sql, type Tx } from "@fleet/db";
import { auditServiceDisable } from "./service-disable.ts";

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Disables the endpoint (`enabled` false, `disabled_reason` failing), with an audit row, when it has been
 * failing for `WEBHOOK_FAILING_DAYS` days: a failed attempt at least that old has no 2xx after it, and
 * each of the last that many days (24 hours back from now) saw an attempt, so one failure long ago and
 * one today is no failing streak. Run in the transaction recording a failed attempt, so it stays cheap
 * for a busy endpoint: the old failure is one probe of the failures' index, the days one probe each, and
 * only when both hold are the attempts since that failure searched for a 2xx.
 */
export async function disableIfFailing(tx: Tx, endpointId: string, now: number): Promise<boolean> {
  const since = now - WEBHOOK_FAILING_DAYS * DAY_MS;
  const [disabled] = resultRows<{
    tenant_id: string;
    workspace_id: string;
    url: string;
    failing_since: number | string;
  }>(
    await tx.execute(sql`
      update webhook_endpoints e
      set enabled = false, disabled_reason = 'failing', disabled_at = ${now}::bigint,
        updated_at = ${now}::bigint
      from (
        select f.at from webhook_attempts f
        where f.endpoint_id = ${endpointId}::uuid and (f.status is null or f.status not between 200 and 299)
          and f.at <= ${since}::bigint
        order by f.at desc limit 1
      ) old_failure
      where e.id = ${endpointId}::uuid and e.enabled
        and case when not exists (
          select 1 from generate_series(0, ${WEBHOOK_FAILING_DAYS - 1}::int) as k(day)
          where not exists (
            select 1 from webhook_attempts a
            where a.endpoint_id = ${endpointId}::uuid
              and a.at > ${now}::bigint - (k.day + 1) * ${DAY_MS}::bigint
              and a.at <= ${now}::bigint - k.day * ${DAY_MS}::bigint))
        then not exists (
          select 1 from webhook_attempts s
          where s.endpoint_id = ${endpointId}::uuid and s.at > old_failure.at and s.status between 200 and 299)
        else false end
      returning e.tenant_id, e.workspace_id, e.url, old_failure.at as failing_since`),
  );
  if (disabled === undefined) return false;
  await auditServiceDisable(tx, { ...disabled, id: endpointId }, now, {
    reason: "failing",
    failing_since: Number(disabled.failing_since),
  });
  return true;
}
