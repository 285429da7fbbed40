import { z } from "zod";
import { displayName, epochMs } from "../common.ts";
import { describePresets } from "../members/role-presets.ts";
import { defineOperation, tenantCredentials } from "../operation.ts";
import { keyExpiresAt, keyRateLimit, keyScopes } from "./api-key.ts";

export const createApiKey = defineOperation({
  id: "apiKeys.create",
  method: "POST",
  path: "/v1/api-keys",
  summary: "Mint a tenant API key",
  description: `Creates a tenant admin key with the agt_t prefix that acts with its creator's scopes. The raw key is in this response only; the service stores its SHA-256 hash. rate_limit gives the key its own request quota per rate-limit window in place of the instance's default (null or absent: the default). scopes (optional) narrows the key to a subset of the minter's scopes: naming one the minter lacks answers 403 UZ-AUTH-022; absent, the key acts with all of its creator's scopes (a key minted by a narrowed credential takes that credential's scopes). Either way the key acts only with those its creator still holds. expires_at (optional, epoch ms) must be in the future and at most 366 days ahead (400 UZ-REQ-001); after it the key answers 401 UZ-APIKEY-007. A key minted by a key neither outlives nor outspends it: absent expires_at or rate_limit take the minting key's own, later or larger ones answer 403 UZ-APIKEY-009. A rate_limit above the instance default needs apikey:admin (403 UZ-AUTH-022). A tenant holds at most FLEET_MAX_API_KEYS live keys (409 UZ-APIKEY-008). The console starts a key from the role presets' scopes (Viewer by default): ${describePresets()}`,
  tags: ["API keys"],
  scope: "apikey:write",
  credentials: tenantCredentials,
  successStatus: 201,
  headers: { "cache-control": "no-store" },
  body: {
    key_name: displayName("key_name", 128),
    description: z
      .string({ error: "description must be a string" })
      .trim()
      .max(1024, { error: "description must be at most 1024 characters" })
      .default(""),
    rate_limit: keyRateLimit.default(null),
    scopes: keyScopes.optional(),
    expires_at: keyExpiresAt.default(null),
  },
  output: z
    .object({
      created_at: epochMs,
      id: z.string(),
      key: z.string(),
      key_name: z.string(),
      rate_limit: keyRateLimit,
      key_prefix: z.string(),
      scopes: z.array(z.string()).nullable(),
      expires_at: epochMs.nullable(),
    })
    .meta({ id: "MintedApiKey" }),
});
