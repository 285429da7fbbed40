import type { Tx } from "@fleet/db";
import { newId } from "../../runtime/ids.ts";
import { recordAudit } from "../shared/audit.ts";

/** The audit log's name for the deliverer, which disables an endpoint on no one's request. */
export const DELIVERY_SERVICE_ACTOR = "service:webhook-delivery";

/**
 * The audit row of an endpoint the deliverer disabled (a 410, or failing for days), written in the
 * transaction that disabled it. `url` is reduced to its origin: a receiver's path or query may hold a
 * token of its own.
 */
export function auditServiceDisable(
  tx: Tx,
  endpoint: { id: string; tenant_id: string; workspace_id: string; url: string },
  at: number,
  details: { reason: "gone" | "failing" } & Record<string, unknown>,
): Promise<void> {
  return recordAudit(tx, {
    actor: { principal: DELIVERY_SERVICE_ACTOR, requestId: newId(at) },
    at,
    tenantId: endpoint.tenant_id,
    workspaceId: endpoint.workspace_id,
    action: "webhook_endpoint.disable",
    target: `webhook_endpoint:${endpoint.id}`,
    details: { ...details, origin: new URL(endpoint.url).origin },
  });
}
