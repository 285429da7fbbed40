import { z } from "zod";
import { epochMs } from "../common.ts";

/** The prefix of a workspace webhook secret: `agt_w` and 256 random bits, base64url. */
export const WEBHOOK_SECRET_PREFIX = "agt_w";

/** How far a signed call's timestamp may be from the service's clock, either way. */
export const SIGNATURE_DRIFT_S = 300;

/** The workspace's webhook secret as reads show it: whether one is in force, never its value. */
export const webhookSecretState = z
  .object({ configured: z.boolean(), created_at: epochMs.nullable() })
  .meta({ id: "WebhookSecretState" });

/** A freshly minted webhook secret: its value is in this answer only. */
export const mintedWebhookSecret = z
  .object({ secret: z.string(), created_at: epochMs })
  .meta({ id: "MintedWebhookSecret" });

export const webhookSecretDescription =
  'Signed calls carry x-signature-timestamp (Unix seconds) and x-signature: v0=<hex HMAC-SHA256(secret, "v0:" + timestamp + ":" + raw body)>, at most 300 s from the service\'s clock.';
