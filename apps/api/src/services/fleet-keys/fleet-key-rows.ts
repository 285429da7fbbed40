import { type FleetKeyItem, Problem } from "@fleet/contracts";
import type { apiKeys } from "@fleet/db";

export function toFleetKeyItem(row: typeof apiKeys.$inferSelect): FleetKeyItem {
  return {
    id: row.id,
    key_name: row.keyName,
    fleet_id: row.fleetId!,
    key_prefix: row.keyPrefix,
    created_at: row.createdAt,
    last_used_at: row.lastUsedAt,
    rate_limit: row.rateLimit,
    expires_at: row.expiresAt,
  };
}

/** An id that names no fleet key of the workspace's (another tenant's reads the same). */
export function fleetKeyNotFound(id: string): Problem {
  return new Problem("UZ-FLEETKEY-001", { detail: `No fleet key ${id} in this workspace.` });
}
