import { WEBHOOK_SECRET_OVERLAP_MS } from "@fleet/contracts";
import { eq, webhookEndpoints } from "@fleet/db";
import { type Actor, recordAudit } from "../shared/audit.ts";
import type { ServiceContext } from "../shared/context.ts";
import { requireWorkspace } from "../shared/tenancy.ts";
import {
  mintEndpointSecret,
  readEndpointItem,
  refuseIfManaged,
  requireEndpoint,
  sealEndpointSecret,
} from "./endpoint-rows.ts";

/**
 * A new signing secret for the endpoint, answered this once. The one it replaces goes on signing beside it
 * for 24 hours (a receiver verifies with either while it switches); one already rotated out is dropped.
 */
export async function rotateWebhookEndpointSecret(
  ctx: ServiceContext,
  actor: Actor,
  tenantId: string,
  input: { workspace_id: string; endpoint_id: string },
) {
  const now = ctx.now();
  const secret = mintEndpointSecret();
  const sealed = sealEndpointSecret(ctx.vault, input.workspace_id, input.endpoint_id, secret);
  return ctx.db.transaction(async (tx) => {
    await requireWorkspace(tx, tenantId, input.workspace_id);
    const current = await requireEndpoint(tx, tenantId, input, { forUpdate: true });
    refuseIfManaged(
      current,
      "It signs with the workspace's notice secret: rotate that with POST …/notice-secret instead.",
    );
    const [updated] = await tx
      .update(webhookEndpoints)
      .set({
        ...sealed,
        secretCreatedAt: now,
        previousWrappedKey: current.wrappedKey,
        previousCiphertext: current.ciphertext,
        previousExpiresAt: now + WEBHOOK_SECRET_OVERLAP_MS,
        updatedAt: now,
      })
      .where(eq(webhookEndpoints.id, current.id))
      .returning();
    await recordAudit(tx, {
      actor,
      at: now,
      tenantId,
      workspaceId: input.workspace_id,
      action: "webhook_endpoint.rotate_secret",
      target: `webhook_endpoint:${current.id}`,
      details: { previous_expires_at: now + WEBHOOK_SECRET_OVERLAP_MS },
    });
    return { ...(await readEndpointItem(tx, updated!, now)), secret };
  });
}
