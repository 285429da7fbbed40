import { z } from "zod";
import { epochMs } from "../common.ts";
import { tenantScopes } from "../scopes.ts";

export const apiKeySorts = ["created_at", "-created_at", "key_name", "-key_name"] as const;
export type ApiKeySort = (typeof apiKeySorts)[number];

/** The largest request quota a key may be minted with, per rate-limit window. */
export const MAX_KEY_RATE_LIMIT = 1_000_000;

/**
 * A key's own request quota per rate-limit window (the instance's FLEET_RATE_LIMIT_WINDOW_SECONDS, 60 s by
 * default), in place of the instance's default for credentials; null takes the default.
 */
export const keyRateLimit = z
  .number({ error: "rate_limit must be an integer" })
  .int({ error: "rate_limit must be an integer" })
  .min(1, { error: `rate_limit must be from 1 to ${MAX_KEY_RATE_LIMIT}` })
  .max(MAX_KEY_RATE_LIMIT, { error: `rate_limit must be from 1 to ${MAX_KEY_RATE_LIMIT}` })
  .nullable();

/** The longest a key may be minted to live: expires_at is at most this far ahead. */
export const MAX_KEY_LIFETIME_MS = 366 * 24 * 60 * 60 * 1000;

/** Scopes chosen at mint, a subset of the minter's; duplicates are folded. */
export const keyScopes = z
  .array(z.enum(tenantScopes, { error: "scopes must be tenant scopes" }), {
    error: "scopes must be an array of tenant scopes",
  })
  .min(1, { error: "scopes must name at least one scope" })
  .max(tenantScopes.length * 2, { error: "scopes lists too many entries" })
  .transform((scopes) => [...new Set(scopes)]);

/** When a key stops authenticating (epoch ms), in the future and at most MAX_KEY_LIFETIME_MS ahead. */
export const keyExpiresAt = z
  .number({ error: "expires_at must be an integer (epoch milliseconds)" })
  .int({ error: "expires_at must be an integer (epoch milliseconds)" })
  .min(0, { error: "expires_at must be in the future" })
  .max(Number.MAX_SAFE_INTEGER, { error: "expires_at is too far in the future" })
  .nullable();

/** A tenant API key as lists show it: never the key or its hash. */
export const apiKeyItem = z
  .object({
    id: z.string(),
    key_name: z.string(),
    description: z.string(),
    active: z.boolean(),
    created_at: epochMs,
    last_used_at: epochMs.nullable(),
    revoked_at: epochMs.nullable(),
    rate_limit: keyRateLimit,
    /** The key's first characters (`agt_t` and 8 more), to tell keys apart; null for keys minted before. */
    key_prefix: z.string().nullable(),
    /** The scopes chosen at mint; null: all of its creator's. A key acts with those its creator still holds. */
    scopes: z.array(z.string()).nullable(),
    /** When the key stops authenticating; null: never. */
    expires_at: epochMs.nullable(),
  })
  .meta({ id: "ApiKey" });
export type ApiKeyItem = z.infer<typeof apiKeyItem>;
