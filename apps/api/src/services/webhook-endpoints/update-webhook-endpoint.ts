import { eq, webhookEndpoints } from "@fleet/db";
import { type Actor, recordAudit } from "../shared/audit.ts";
import type { ServiceContext } from "../shared/context.ts";
import { requireFleet, requireWorkspace } from "../shared/tenancy.ts";
import { checkEndpointUrl, readEndpointItem, refuseIfManaged, requireEndpoint } from "./endpoint-rows.ts";

export interface UpdateEndpointInput {
  workspace_id: string;
  endpoint_id: string;
  url?: string;
  event_types?: string[];
  fleet_id?: string | null;
  description?: string;
  enabled?: boolean;
}

/**
 * Changes what was sent; on the notice endpoint, only `enabled` (the rest is the approval policy's: 409
 * UZ-WEBHOOK-012). Enabling clears why and when the service disabled it (a 410, failing), so the
 * endpoint's pending deliveries go on. Audited with the names of the fields changed, never their values' secrets.
 */
export async function updateWebhookEndpoint(
  ctx: ServiceContext,
  actor: Actor,
  tenantId: string,
  input: UpdateEndpointInput,
) {
  const url = input.url === undefined ? undefined : await checkEndpointUrl(ctx, input.url);
  const now = ctx.now();
  return ctx.db.transaction(async (tx) => {
    await requireWorkspace(tx, tenantId, input.workspace_id);
    const current = await requireEndpoint(tx, tenantId, input, { forUpdate: true });
    if (
      input.url !== undefined ||
      input.event_types !== undefined ||
      input.fleet_id !== undefined ||
      input.description !== undefined
    ) {
      refuseIfManaged(current);
    }
    if (input.fleet_id != null) await requireFleet(tx, tenantId, input.workspace_id, input.fleet_id);
    const changes = {
      url,
      eventTypes: input.event_types,
      fleetId: input.fleet_id,
      description: input.description,
      enabled: input.enabled,
      ...(input.enabled === undefined ? {} : { disabledReason: null, disabledAt: null }),
    };
    const [updated] = await tx
      .update(webhookEndpoints)
      .set({ ...changes, updatedAt: now })
      .where(eq(webhookEndpoints.id, input.endpoint_id))
      .returning();
    await recordAudit(tx, {
      actor,
      at: now,
      tenantId,
      workspaceId: input.workspace_id,
      action: "webhook_endpoint.update",
      target: `webhook_endpoint:${input.endpoint_id}`,
      details: {
        changed: Object.entries(input)
          .filter(
            ([field, value]) => value !== undefined && field !== "workspace_id" && field !== "endpoint_id",
          )
          .map(([field]) => field),
        enabled: updated!.enabled,
      },
    });
    return readEndpointItem(tx, updated!, now);
  });
}
