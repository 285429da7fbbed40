import type { ServiceContext } from "../shared/context.ts";
import { requireWorkspace } from "../shared/tenancy.ts";
import { deliveryNotFound, readDeliveryItem } from "./delivery-rows.ts";
import { requireEndpoint } from "./endpoint-rows.ts";

/**
 * One delivery of the endpoint as the log shows it. The endpoint is found within the caller's tenant and
 * workspace first, so another's endpoint is UZ-WEBHOOK-007 and an event it was never sent UZ-WEBHOOK-010.
 */
export async function getWebhookDelivery(
  ctx: ServiceContext,
  tenantId: string,
  input: { workspace_id: string; endpoint_id: string; event_id: string },
) {
  return ctx.db.transaction(async (tx) => {
    await requireWorkspace(tx, tenantId, input.workspace_id);
    const endpoint = await requireEndpoint(tx, tenantId, input);
    const item = await readDeliveryItem(tx, endpoint.id, input.event_id);
    if (item === undefined) throw deliveryNotFound(input.event_id);
    return item;
  });
}
