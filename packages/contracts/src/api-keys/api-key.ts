import { z } from "zod";
import { epochMs } from "../common.ts";

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
  })
  .meta({ id: "ApiKey" });
export type ApiKeyItem = z.infer<typeof apiKeyItem>;
