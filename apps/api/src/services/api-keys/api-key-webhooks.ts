import type { apiKeys, Tx } from "@fleet/db";
import { recordTenantWebhookEvent } from "../members/tenant-webhooks.ts";
import { toApiKeyItem } from "./api-key-rows.ts";

/**
 * Writes `api_key.revoked` for each key a revoke (or a member's removal) just revoked, in that transaction;
 * its data is the key as the key list shows it (its prefix, never the key or its hash).
 */
export async function apiKeysRevokedWebhookEvents(tx: Tx, rows: (typeof apiKeys.$inferSelect)[], at: number) {
  let written = false;
  for (const row of rows) {
    const recorded = await recordTenantWebhookEvent(
      tx,
      {
        tenantId: row.tenantId,
        type: "api_key.revoked",
        resource: `api_key:${row.id}`,
        readPath: "/v1/api-keys",
        at,
      },
      () => toApiKeyItem(row),
    );
    written = recorded || written;
  }
  return written;
}
