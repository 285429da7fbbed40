import { WEBHOOK_EVENT_KEEP_MS } from "@fleet/contracts/webhook-endpoints/webhook-delivery";
import { resultRows, sql } from "@fleet/db";
import type { ServiceContext } from "../shared/context.ts";

/** The pruner's pg-boss queue and cadence: one pass a minute, on one instance at a time. */
export const WEBHOOK_PRUNE_QUEUE = "webhook-prune";
export const WEBHOOK_PRUNE_EVERY_MS = 60_000;

/** Events deleted a statement, and statements a pass: a backlog drains over passes, not in one lock. */
const PRUNE_BATCH = 1_000;
const PRUNE_BATCHES_A_PASS = 20;

/**
 * Deletes the outbox's events older than `WEBHOOK_EVENT_KEEP_MS` (the replay window and a day's margin),
 * with their deliveries and attempts, oldest first, in batches; answers how many went. An event with a
 * delivery still pending to an enabled endpoint (retrying, or retried by a person) stays until it settles;
 * a disabled endpoint's pending delivery does not hold its event past the window, so a receiver disabled
 * for weeks does not keep the outbox growing. An event not yet fanned out stays until it is.
 */
export async function pruneWebhookEvents(
  ctx: Pick<ServiceContext, "db" | "now">,
  batch = PRUNE_BATCH,
): Promise<number> {
  const before = ctx.now() - WEBHOOK_EVENT_KEEP_MS;
  let pruned = 0;
  for (let pass = 0; pass < PRUNE_BATCHES_A_PASS; pass += 1) {
    const gone = resultRows<{ id: string }>(
      await ctx.db.execute(sql`
        delete from webhook_events ev
        where ev.id in (
          select e.id from webhook_events e
          where e.created_at < ${before}::bigint and e.fanned_out
            and not exists (
              select 1 from webhook_deliveries d join webhook_endpoints p on p.id = d.endpoint_id
              where d.event_id = e.id and d.status = 'pending' and p.enabled)
          order by e.created_at
          limit ${batch}
          for update of e skip locked)
        returning ev.id`),
    ).length;
    pruned += gone;
    if (gone < batch) break;
  }
  return pruned;
}
