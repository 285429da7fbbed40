import { Problem } from "@fleet/contracts";
import {
  WEBHOOK_REPLAY_MAX,
  WEBHOOK_REPLAY_WINDOW_MS,
} from "@fleet/contracts/webhook-endpoints/webhook-delivery";
import { resultRows, sql } from "@fleet/db";
import { type Actor, recordAudit } from "../shared/audit.ts";
import type { ServiceContext } from "../shared/context.ts";
import { requireWorkspace } from "../shared/tenancy.ts";
import { requireEndpoint } from "./endpoint-rows.ts";
import { holdFanOut } from "./fan-out.ts";

/**
 * Queues again everything of the workspace since `since` that the endpoint's subscription matches now (its
 * types, its fleet filter), oldest first and at most `WEBHOOK_REPLAY_MAX` events, in one statement: a
 * delivery the endpoint has goes back to pending and due now, an event it never got gets one. The worker
 * still sends a resource's deliveries in event order. `since` may reach back `WEBHOOK_REPLAY_WINDOW_MS`.
 * It holds the fan-out lock (`holdFanOut`) for its write: a fan-out writing the same deliveries at once
 * would wait for it while it waited for the fan-out.
 */
export async function replayWebhookEndpoint(
  ctx: ServiceContext,
  actor: Actor,
  tenantId: string,
  input: { workspace_id: string; endpoint_id: string; since: number },
) {
  const now = ctx.now();
  const answer = await ctx.db.transaction(async (tx) => {
    await requireWorkspace(tx, tenantId, input.workspace_id);
    const endpoint = await requireEndpoint(tx, tenantId, input);
    const earliest = now - WEBHOOK_REPLAY_WINDOW_MS;
    if (input.since < earliest) {
      throw new Problem("UZ-WEBHOOK-011", {
        detail: `since may reach back ${WEBHOOK_REPLAY_WINDOW_MS / 86_400_000} days at most: ${earliest} or later now.`,
      });
    }
    await holdFanOut(tx);
    const [counted] = resultRows<{ queued: number | string; next_since: number | string | null }>(
      await tx.execute(sql`
        with matched as (
          select ev.id, ev.type, ev.resource, ev.created_at from webhook_events ev
          where ev.workspace_id = ${input.workspace_id}::uuid and ev.created_at >= ${input.since}::bigint
            and ev.type = any(${`{${endpoint.eventTypes.join(",")}}`}::text[])
            and (${endpoint.fleetId}::uuid is null or ev.fleet_id = ${endpoint.fleetId}::uuid)
          order by ev.created_at, ev.id
          limit ${WEBHOOK_REPLAY_MAX + 1}
        ), queued as (
          insert into webhook_deliveries (endpoint_id, event_id, resource, type, status, attempts,
            next_attempt_at, created_at, updated_at)
          select ${endpoint.id}::uuid, m.id, m.resource, m.type, 'pending', 0, ${now}::bigint, ${now}::bigint,
            ${now}::bigint
          from (select * from matched order by created_at, id limit ${WEBHOOK_REPLAY_MAX}) m
          on conflict (endpoint_id, event_id) do update
            set status = 'pending', next_attempt_at = excluded.next_attempt_at, updated_at = excluded.updated_at
          returning event_id
        )
        select (select count(*) from queued) as queued,
          (select created_at from matched order by created_at, id offset ${WEBHOOK_REPLAY_MAX} limit 1)
            as next_since`),
    );
    const result = {
      queued: Number(counted?.queued ?? 0),
      next_since: counted?.next_since == null ? null : Number(counted.next_since),
    };
    await recordAudit(tx, {
      actor,
      at: now,
      tenantId,
      workspaceId: input.workspace_id,
      action: "webhook_endpoint.replay",
      target: `webhook_endpoint:${endpoint.id}`,
      details: { since: input.since, ...result },
    });
    return result;
  });
  if (answer.queued > 0) ctx.webhookOutbox?.kick();
  return answer;
}
