import type { WebhookEventType } from "@fleet/contracts";
import { resultRows, sql, type Tx } from "@fleet/db";
import { recordWebhookEvent } from "../webhook-endpoints/outbox.ts";
import { anySubscriber } from "../webhook-endpoints/subscribers.ts";

/** An event about a tenant-wide resource (an API key, a member), which no workspace or fleet owns. */
export interface TenantWebhookEvent {
  tenantId: string;
  type: WebhookEventType;
  resource: string;
  readPath: string;
  at: number;
}

/**
 * Writes a tenant-wide resource's event to the outbox of every workspace of the tenant with an enabled
 * endpoint subscribed to its type and filtered to no fleet (a fleet filter asks for that fleet's events
 * only), in the act's transaction. One read when no workspace subscribes (the usual case), so `data` is
 * never built then; each workspace that does gets its own event, as its endpoints are its own. Answers
 * whether anything was written.
 */
export async function recordTenantWebhookEvent(
  tx: Tx,
  event: TenantWebhookEvent,
  data: () => Promise<unknown> | unknown,
): Promise<boolean> {
  const workspaces = resultRows<{ workspace_id: string }>(
    await tx.execute(sql`
      select w.id as workspace_id from workspaces w
      where w.tenant_id = ${event.tenantId}::uuid
        and ${anySubscriber({ workspace: sql`w.id`, type: sql`${event.type}`, fleet: sql`null::uuid` })}`),
  );
  let written = false;
  for (const { workspace_id } of workspaces) {
    const recorded = await recordWebhookEvent(
      tx,
      { ...event, workspaceId: workspace_id, fleetId: null },
      data,
    );
    written = recorded || written;
  }
  return written;
}
