import { Problem, WEBHOOK_ENDPOINTS_MAX } from "@fleet/contracts";
import { and, count, eq, isNull, webhookEndpoints, workspaces } from "@fleet/db";
import { newId } from "../../runtime/ids.ts";
import { type Actor, recordAudit } from "../shared/audit.ts";
import type { ServiceContext } from "../shared/context.ts";
import { requireFleet, requireWorkspace } from "../shared/tenancy.ts";
import { NO_HEALTH } from "./endpoint-health.ts";
import { checkEndpointUrl, mintEndpointSecret, sealEndpointSecret, toEndpointItem } from "./endpoint-rows.ts";

export interface CreateEndpointInput {
  workspace_id: string;
  url: string;
  event_types: string[];
  fleet_id: string | null;
  description: string;
  enabled: boolean;
}

/**
 * Subscribes an endpoint: its URL checked (before any transaction: resolving a name takes time), a new
 * signing secret sealed, audited, and the secret answered this once. The workspace's row is locked, so
 * concurrent creates count one another against the cap.
 */
export async function createWebhookEndpoint(
  ctx: ServiceContext,
  actor: Actor,
  tenantId: string,
  input: CreateEndpointInput,
) {
  const url = await checkEndpointUrl(ctx, input.url);
  const now = ctx.now();
  const id = newId(now);
  const secret = mintEndpointSecret();
  const sealed = sealEndpointSecret(ctx.vault, input.workspace_id, id, secret);
  const row = await ctx.db.transaction(async (tx) => {
    await requireWorkspace(tx, tenantId, input.workspace_id);
    await tx
      .select({ id: workspaces.id })
      .from(workspaces)
      .where(eq(workspaces.id, input.workspace_id))
      .for("update");
    if (input.fleet_id !== null) await requireFleet(tx, tenantId, input.workspace_id, input.fleet_id);
    const [held] = await tx
      .select({ n: count() })
      .from(webhookEndpoints)
      // The notice endpoint is the approval policy's, and counts against no limit.
      .where(and(eq(webhookEndpoints.workspaceId, input.workspace_id), isNull(webhookEndpoints.managedBy)));
    if ((held?.n ?? 0) >= WEBHOOK_ENDPOINTS_MAX) {
      throw new Problem("UZ-WEBHOOK-009", {
        detail: `The workspace already has ${WEBHOOK_ENDPOINTS_MAX} webhook endpoints; delete one first.`,
        current_state: "at_capacity",
      });
    }
    const [inserted] = await tx
      .insert(webhookEndpoints)
      .values({
        id,
        tenantId,
        workspaceId: input.workspace_id,
        url,
        description: input.description,
        eventTypes: input.event_types,
        fleetId: input.fleet_id,
        enabled: input.enabled,
        ...sealed,
        secretCreatedAt: now,
        createdBy: actor.principal,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    await recordAudit(tx, {
      actor,
      at: now,
      tenantId,
      workspaceId: input.workspace_id,
      action: "webhook_endpoint.create",
      target: `webhook_endpoint:${id}`,
      details: { origin: new URL(url).origin, event_types: input.event_types, fleet_id: input.fleet_id },
    });
    return inserted!;
  });
  return { ...toEndpointItem(row, now, NO_HEALTH), secret };
}
