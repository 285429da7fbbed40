import { Webhook } from "standardwebhooks";

/**
 * The Standard Webhooks headers of one delivery (the `standardwebhooks` package signs): `webhook-id` (the
 * event's id, the same on every attempt), `webhook-timestamp` (Unix seconds of this attempt) and
 * `webhook-signature`, one `v1,<base64 HMAC-SHA256(key, id.timestamp.body)>` per secret in force,
 * space-separated: during a rotation's overlap a receiver holding either secret verifies.
 */
export function signedHeaders(
  secrets: readonly string[],
  eventId: string,
  nowMs: number,
  body: string,
): Record<string, string> {
  const seconds = Math.floor(nowMs / 1000);
  const at = new Date(seconds * 1000);
  return {
    "webhook-id": eventId,
    "webhook-timestamp": String(seconds),
    "webhook-signature": secrets.map((secret) => new Webhook(secret).sign(eventId, at, body)).join(" "),
  };
}
