import { resultRows, sql } from "@fleet/db";
import type { ServiceContext } from "../shared/context.ts";
import { gatesWebhookEvents } from "./gate-webhooks.ts";

/** How many due gates one sweep escalates; a larger backlog is taken by the next sweeps. */
const ESCALATION_BATCH = 500;

/**
 * Marks pending gates whose escalation time has passed as escalated, each exactly once: a conditional
 * update (`escalated_at is null`) with concurrent sweepers skipping rows another one holds, and each
 * marked gate's `gate.escalated` in the outbox in the same transaction: its subscribers, the workspace's
 * notice endpoint (the approval policy's escalation URL) among them, get it from there. Answers the ids it
 * marked, in this call only.
 */
export async function markEscalations(ctx: ServiceContext, now: number): Promise<string[]> {
  const { ids, written } = await ctx.db.transaction(async (tx) => {
    const rows = resultRows<{ id: string }>(
      await tx.execute(sql`
      with due as (
        select id from approval_gates
        where status = 'pending' and escalated_at is null and escalate_at <= ${now}::bigint
          and timeout_at > ${now}::bigint
        order by escalate_at
        limit ${ESCALATION_BATCH}
        for update skip locked
      )
      update approval_gates g
      set escalated_at = ${now}::bigint, updated_at = ${now}::bigint
      from due where g.id = due.id and g.status = 'pending' and g.escalated_at is null
      returning g.id`),
    );
    const marked = rows.map((row) => row.id);
    return { ids: marked, written: (await gatesWebhookEvents(tx, marked, "gate.escalated", now)).written };
  });
  if (written) ctx.webhookOutbox?.kick();
  return ids;
}
