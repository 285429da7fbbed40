import { resultRows, sql, type Tx } from "@fleet/db";
import { newId } from "../../runtime/ids.ts";
import { recordAudit } from "../shared/audit.ts";
import { DELIVERY_SERVICE_ACTOR } from "./failing-endpoints.ts";

/**
 * Disables the endpoints whose receivers answered 410 Gone (`enabled` false, `disabled_reason` gone), each
 * with an audit row, in the transaction recording the attempts. Only an update that flips an enabled row
 * writes its row: a second 410 racing the first waits on the row's lock, then finds it disabled (PostgreSQL
 * re-reads `enabled` after the wait), and a 410 for an endpoint a person disabled meanwhile changes nothing.
 */
export async function disableGone(tx: Tx, endpointIds: readonly string[], now: number): Promise<string[]> {
  if (endpointIds.length === 0) return [];
  const disabled = resultRows<{ id: string; tenant_id: string; workspace_id: string; url: string }>(
    await tx.execute(sql`
      update webhook_endpoints
      set enabled = false, disabled_reason = 'gone', disabled_at = ${now}::bigint, updated_at = ${now}::bigint
      where id = any(${sql.param([...endpointIds])}::uuid[]) and enabled
      returning id, tenant_id, workspace_id, url`),
  );
  for (const endpoint of disabled) {
    await recordAudit(tx, {
      actor: { principal: DELIVERY_SERVICE_ACTOR, requestId: newId(now) },
      at: now,
      tenantId: endpoint.tenant_id,
      workspaceId: endpoint.workspace_id,
      action: "webhook_endpoint.disable",
      target: `webhook_endpoint:${endpoint.id}`,
      // The origin only: a receiver's path or query may carry a token of its own.
      details: { reason: "gone", origin: new URL(endpoint.url).origin, status: 410 },
    });
  }
  return disabled.map((endpoint) => endpoint.id);
}
