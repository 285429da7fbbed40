import { WEBHOOK_FAILING_DAYS } from "@fleet/contracts/webhook-endpoints/webhook-delivery";
import { resultRows, sql, type Tx } from "@fleet/db";
import { newId } from "../../runtime/ids.ts";
import { recordAudit } from "../shared/audit.ts";

const DAY_MS = 24 * 60 * 60 * 1000;

/** The audit log's name for the deliverer, which disables a failing endpoint on no one's request. */
export const DELIVERY_SERVICE_ACTOR = "service:webhook-delivery";

/**
 * Disables the endpoint (`enabled` false, `disabled_reason` failing), with an audit row, when it has been
 * failing for `WEBHOOK_FAILING_DAYS` days: its first failure since its last 2xx is at least that old, and
 * each of the last that many days (24 hours back from now) saw an attempt, so one failure long ago and
 * one today is no failing streak. Run in the transaction recording a failed attempt; both lookups walk
 * the attempts' (endpoint, at) index over the streak only.
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
      with streak as (
        select min(a.at) as first_failure from webhook_attempts a
        where a.endpoint_id = ${endpointId}::uuid and a.at > coalesce((
          select s.at from webhook_attempts s
          where s.endpoint_id = ${endpointId}::uuid and s.status between 200 and 299
          order by s.at desc limit 1), -1)
      ), days as (
        select count(distinct (${now}::bigint - a.at) / ${DAY_MS}::bigint) as tried from webhook_attempts a
        where a.endpoint_id = ${endpointId}::uuid and a.at > ${since}::bigint and a.at <= ${now}::bigint
      )
      update webhook_endpoints e
      set enabled = false, disabled_reason = 'failing', updated_at = ${now}::bigint
      from streak, days
      where e.id = ${endpointId}::uuid and e.enabled and streak.first_failure <= ${since}::bigint
        and days.tried >= ${WEBHOOK_FAILING_DAYS}
      returning e.tenant_id, e.workspace_id, e.url, streak.first_failure as failing_since`),
  );
  if (disabled === undefined) return false;
  await recordAudit(tx, {
    actor: { principal: DELIVERY_SERVICE_ACTOR, requestId: newId(now) },
    at: now,
    tenantId: disabled.tenant_id,
    workspaceId: disabled.workspace_id,
    action: "webhook_endpoint.disable",
    target: `webhook_endpoint:${endpointId}`,
    details: {
      reason: "failing",
      origin: new URL(disabled.url).origin,
      failing_since: Number(disabled.failing_since),
    },
  });
  return true;
}
