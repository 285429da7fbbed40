import type { ApiKeyItem } from "@fleet/contracts";
import type { apiKeys } from "@fleet/db";

export function toApiKeyItem(row: typeof apiKeys.$inferSelect): ApiKeyItem {
  return {
    id: row.id,
    key_name: row.keyName,
    description: row.description,
    active: row.revokedAt === null,
    created_at: row.createdAt,
    last_used_at: row.lastUsedAt,
    revoked_at: row.revokedAt,
    rate_limit: row.rateLimit,
    key_prefix: row.keyPrefix,
    scopes: row.scopes,
    expires_at: row.expiresAt,
  };
}
