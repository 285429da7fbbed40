import { and, eq, webhookDeliveries } from "@fleet/db";
import { type Actor, recordAudit } from "../shared/audit.ts";
import type { ServiceContext } from "../shared/context.ts";
import { requireWorkspace } from "../shared/tenancy.ts";
import { deliveryNotFound, readDeliveryItem } from "./delivery-rows.ts";
import { requireEndpoint } from "./endpoint-rows.ts";

/**
 * Makes one delivery due now, whatever its status (a succeeded one is sent again: integrators re-drive
 * what they lost after acknowledging it). Its attempts go on counting, so the next failure follows the
 * schedule from where it was. Audited; the deliverer is kicked once the change commits.
 */
export async function retryWebhookDelivery(
  ctx: ServiceContext,
  actor: Actor,
  tenantId: string,
  input: { workspace_id: string; endpoint_id: string; event_id: string },
) {
  const now = ctx.now();
  const item = await ctx.db.transaction(async (tx) => {
    await requireWorkspace(tx, tenantId, input.workspace_id);
    const endpoint = await requireEndpoint(tx, tenantId, input);
    const which = and(
      eq(webhookDeliveries.endpointId, endpoint.id),
      eq(webhookDeliveries.eventId, input.event_id),
    );
    const [before] = await tx
      .select({ status: webhookDeliveries.status })
      .from(webhookDeliveries)
      .where(which)
      .for("update");
    if (before === undefined) throw deliveryNotFound(input.event_id);
    await tx
      .update(webhookDeliveries)
      .set({ status: "pending", nextAttemptAt: now, updatedAt: now })
      .where(which);
    await recordAudit(tx, {
      actor,
      at: now,
      tenantId,
      workspaceId: input.workspace_id,
      action: "webhook_endpoint.retry_delivery",
      target: `webhook_endpoint:${endpoint.id}`,
      details: { event_id: input.event_id, previous_status: before.status },
    });
    return (await readDeliveryItem(tx, endpoint.id, input.event_id))!;
  });
  ctx.webhookOutbox?.kick();
  return item;
}
