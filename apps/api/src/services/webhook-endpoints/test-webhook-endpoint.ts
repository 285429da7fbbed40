import { WEBHOOK_PING_TYPE } from "@fleet/contracts/webhook-endpoints/test-webhook-endpoint";
import { webhookDeliveries, webhookEvents } from "@fleet/db";
import { newId } from "../../runtime/ids.ts";
import { type Actor, recordAudit } from "../shared/audit.ts";
import type { ServiceContext } from "../shared/context.ts";
import { requireWorkspace } from "../shared/tenancy.ts";
import { readDeliveryItem } from "./delivery-rows.ts";
import { requireEndpoint } from "./endpoint-rows.ts";

/**
 * Sends the endpoint, and it only, a `ping` through the outbox: an event and one pending delivery, so it
 * is signed, listed and retried like any. Its resource is the endpoint, so pings to one endpoint keep
 * their order. Audited; the deliverer is kicked once it commits.
 */
export async function testWebhookEndpoint(
  ctx: ServiceContext,
  actor: Actor,
  tenantId: string,
  input: { workspace_id: string; endpoint_id: string },
) {
  const now = ctx.now();
  const id = newId(now);
  const item = await ctx.db.transaction(async (tx) => {
    await requireWorkspace(tx, tenantId, input.workspace_id);
    const endpoint = await requireEndpoint(tx, tenantId, input);
    const resource = `webhook_endpoint:${endpoint.id}`;
    await tx.insert(webhookEvents).values({
      id,
      tenantId,
      workspaceId: input.workspace_id,
      fleetId: null,
      type: WEBHOOK_PING_TYPE,
      resource,
      data: { endpoint_id: endpoint.id, workspace_id: input.workspace_id, requested_at: now },
      createdAt: now,
      // Its one delivery goes with it: a ping is for this endpoint only, whatever else subscribes.
      fannedOut: true,
    });
    await tx.insert(webhookDeliveries).values({
      endpointId: endpoint.id,
      eventId: id,
      resource,
      type: WEBHOOK_PING_TYPE,
      status: "pending",
      attempts: 0,
      nextAttemptAt: now,
      createdAt: now,
      updatedAt: now,
    });
    await recordAudit(tx, {
      actor,
      at: now,
      tenantId,
      workspaceId: input.workspace_id,
      action: "webhook_endpoint.test",
      target: resource,
      details: { event_id: id },
    });
    return (await readDeliveryItem(tx, endpoint.id, id))!;
  });
  ctx.webhookOutbox?.kick();
  return item;
}
