import { type ApiKeyItem, Problem } from "@fleet/contracts";
import { apiKeys, type Database, type Tx } from "@fleet/db";
import { mintSecret, sha256Hex, TENANT_KEY_PREFIX } from "../../auth/tokens.ts";
import { newId } from "../../runtime/ids.ts";

/** How many characters of a key are kept and shown to tell keys apart: `agt_t` and 8 more (48 bits). */
const KEY_PREFIX_LENGTH = TENANT_KEY_PREFIX.length + 8;

export interface NewApiKey {
  tenantId: string;
  userId: string;
  keyName: string;
  description: string;
  /** The key's own request quota per rate-limit window; null takes the instance's default. */
  rateLimit?: number | null;
  /** The scopes the key is narrowed to; null: all of its creator's current scopes. */
  scopes?: readonly string[] | null;
  /** When the key stops authenticating; null: never. */
  expiresAt?: number | null;
}

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

/** An id that names no key of the tenant's (another tenant's key reads the same). */
export function apiKeyNotFound(id: string): Problem {
  return new Problem("UZ-APIKEY-001", { detail: `No API key ${id} in this tenant.` });
}

/** A fresh secret for a key, with what is stored of it: its SHA-256 and its shown prefix. */
export function newKeySecret(prefix = TENANT_KEY_PREFIX) {
  const key = mintSecret(prefix);
  return { key, keyHash: sha256Hex(key), keyPrefix: key.slice(0, prefix.length + 8) };
}

/** The step that stores a new key, in the caller's transaction when it has one (the tenant bootstrap's). */
export async function insertApiKey(db: Database | Tx, input: NewApiKey, now: number) {
  const key = mintSecret(TENANT_KEY_PREFIX);
  const id = newId(now);
  const keyPrefix = key.slice(0, KEY_PREFIX_LENGTH);
  const scopes = input.scopes == null ? null : [...input.scopes];
  const expiresAt = input.expiresAt ?? null;
  await db.insert(apiKeys).values({
    id,
    tenantId: input.tenantId,
    createdBy: input.userId,
    keyName: input.keyName,
    description: input.description,
    keyHash: sha256Hex(key),
    createdAt: now,
    rateLimit: input.rateLimit ?? null,
    keyPrefix,
    scopes,
    expiresAt,
  });
  return {
    created_at: now,
    id,
    key,
    key_name: input.keyName,
    rate_limit: input.rateLimit ?? null,
    key_prefix: keyPrefix,
    scopes,
    expires_at: expiresAt,
  };
}
