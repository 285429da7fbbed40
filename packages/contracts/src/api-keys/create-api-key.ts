import { z } from "zod";
import { displayName, epochMs } from "../common.ts";
import { defineOperation, tenantCredentials } from "../operation.ts";
import { keyRateLimit } from "./api-key.ts";

export const createApiKey = defineOperation({
  id: "apiKeys.create",
  method: "POST",
  path: "/v1/api-keys",
  summary: "Mint a tenant API key",
  description:
    "Creates a tenant admin key with the agt_t prefix that acts with its creator's scopes. The raw key is in this response only; the service stores its SHA-256 hash. rate_limit gives the key its own request quota per rate-limit window in place of the instance's default (null or absent: the default).",
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
  },
  output: z
    .object({
      created_at: epochMs,
      id: z.string(),
      key: z.string(),
      key_name: z.string(),
      rate_limit: keyRateLimit,
    })
    .meta({ id: "MintedApiKey" }),
});
