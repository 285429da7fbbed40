import { z } from "zod";
import { epochMs, uuidv7 } from "../common.ts";
import { defineOperation, tenantCredentials } from "../operation.ts";
import { keyRateLimit } from "./api-key.ts";

/** The longest the previous secret may stay valid after a rotation: 24 hours. */
export const MAX_ROTATION_GRACE_SECONDS = 86_400;

export const rotateApiKey = defineOperation({
  id: "apiKeys.rotate",
  method: "POST",
  path: "/v1/api-keys/{id}/rotate",
  summary: "Rotate a tenant API key's secret",
  description:
    "Gives the key a new secret, shown in this response only, and keeps its id, name, scopes, expiry and quota. grace_period_seconds (0 to 86400, default 0) is how long the previous secret keeps authenticating: 0 ends it at once, on every instance (a leak). Only one previous secret is kept: rotating again ends the earlier one. Revoking the key ends both. A revoked key answers 409 UZ-APIKEY-006. A key rotating a key that outlives or outspends it answers 403 UZ-APIKEY-009.",
  tags: ["API keys"],
  scope: "apikey:write",
  credentials: tenantCredentials,
  successStatus: 200,
  errorStatuses: [409],
  headers: { "cache-control": "no-store" },
  params: { id: uuidv7("id") },
  body: {
    grace_period_seconds: z
      .number({ error: "grace_period_seconds must be an integer" })
      .int({ error: "grace_period_seconds must be an integer" })
      .min(0, { error: `grace_period_seconds must be from 0 to ${MAX_ROTATION_GRACE_SECONDS}` })
      .max(MAX_ROTATION_GRACE_SECONDS, {
        error: `grace_period_seconds must be from 0 to ${MAX_ROTATION_GRACE_SECONDS}`,
      })
      .default(0),
  },
  output: z
    .object({
      id: z.string(),
      key: z.string(),
      key_name: z.string(),
      key_prefix: z.string(),
      rate_limit: keyRateLimit,
      scopes: z.array(z.string()).nullable(),
      expires_at: epochMs.nullable(),
      rotated_at: epochMs,
      /** Until when the previous secret still authenticates; null: it ended with this rotation. */
      previous_key_expires_at: epochMs.nullable(),
    })
    .meta({ id: "RotatedApiKey" }),
});
