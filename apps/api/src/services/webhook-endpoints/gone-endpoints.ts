import { resultRows, sql, type Tx } from "@fleet/db";
import { auditServiceDisable } from "./service-disable.ts";

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
  for (const endpoint of disabled)
    await auditServiceDisable(tx, endpoint, now, { reason: "gone", status: 410 });
  return disabled.map((endpoint) => endpoint.id);
}
