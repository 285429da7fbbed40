import { eq, webhookEndpoints } from "@fleet/db";
import { type Actor, recordAudit } from "../shared/audit.ts";
import type { ServiceContext } from "../shared/context.ts";
import { requireWorkspace } from "../shared/tenancy.ts";
import { refuseIfManaged, requireEndpoint } from "./endpoint-rows.ts";

/** Removes the endpoint (not the notice endpoint: the approval policy removes it); its deliveries and their attempts go with it (by trigger and key: migration 0045). */
export async function deleteWebhookEndpoint(
  ctx: ServiceContext,
  actor: Actor,
  tenantId: string,
  input: { workspace_id: string; endpoint_id: string },
): Promise<void> {
  const now = ctx.now();
  await ctx.db.transaction(async (tx) => {
    await requireWorkspace(tx, tenantId, input.workspace_id);
    const row = await requireEndpoint(tx, tenantId, input, { forUpdate: true });
    refuseIfManaged(row);
    await tx.delete(webhookEndpoints).where(eq(webhookEndpoints.id, row.id));
    await recordAudit(tx, {
      actor,
      at: now,
      tenantId,
      workspaceId: input.workspace_id,
      action: "webhook_endpoint.delete",
      target: `webhook_endpoint:${row.id}`,
      details: { origin: new URL(row.url).origin },
    });
  });
}
