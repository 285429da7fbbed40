import { createHmac, timingSafeEqual } from "node:crypto";
import { Problem, SIGNATURE_DRIFT_S } from "@fleet/contracts";

/**
 * The signature of a webhook call, in both directions: `v0=` and the hex HMAC-SHA256, keyed with the
 * workspace's webhook secret, of `"v0:" + timestamp + ":" + raw body`. The raw body is the bytes as sent:
 * a body parsed and re-serialised would not verify.
 */
export function sign(secret: string, timestamp: number | string, rawBody: string | Buffer): string {
  const mac = createHmac("sha256", secret);
  mac.update(`v0:${timestamp}:`);
  mac.update(rawBody);
  return `v0=${mac.digest("hex")}`;
}

/** The headers a signed call carries. */
export interface SignedHeaders {
  /** `x-signature-timestamp`: Unix seconds. */
  timestamp: string | undefined;
  /** `x-signature`: `v0=<64 hex>`. */
  signature: string | undefined;
}

export type Verdict = "valid" | "malformed" | "stale" | "mismatch";

const TIMESTAMP = /^\d{1,12}$/;
const SIGNATURE = /^v0=[0-9a-f]{64}$/;

/**
 * Checks a call's signature against `secret`. The timestamp must be within 300 s of `nowMs` either way
 * (±300 s passes, ±301 s does not); the comparison takes the same time wherever the signatures differ.
 */
export function verify(
  secret: string,
  headers: SignedHeaders,
  rawBody: string | Buffer,
  nowMs: number,
): Verdict {
  const { timestamp, signature } = headers;
  if (timestamp === undefined || signature === undefined) return "malformed";
  if (!TIMESTAMP.test(timestamp) || !SIGNATURE.test(signature.toLowerCase())) return "malformed";
  if (Math.abs(Math.floor(nowMs / 1000) - Number(timestamp)) > SIGNATURE_DRIFT_S) return "stale";
  const expected = Buffer.from(sign(secret, timestamp, rawBody));
  const given = Buffer.from(signature.toLowerCase());
  // Both are `v0=` and 64 hex digits here, so equal in length, as timingSafeEqual needs.
  return expected.length === given.length && timingSafeEqual(expected, given) ? "valid" : "mismatch";
}

/** The refusal each failed verdict answers: 401 with its registry code, the same for every caller. */
export function refusal(verdict: Exclude<Verdict, "valid">): Problem {
  switch (verdict) {
    case "malformed":
      return new Problem("UZ-WEBHOOK-001", {
        detail: "Send x-signature-timestamp (Unix seconds) and x-signature (v0=<64 hex digits>).",
      });
    case "stale":
      return new Problem("UZ-WEBHOOK-003", {
        detail: `x-signature-timestamp is more than ${SIGNATURE_DRIFT_S} seconds from the service's clock.`,
      });
    case "mismatch":
      return new Problem("UZ-WEBHOOK-002", { detail: "The signature does not verify." });
  }
}

/** Verifies, or throws the refusal. */
export function requireSignature(
  secret: string,
  headers: SignedHeaders,
  rawBody: string | Buffer,
  nowMs: number,
): void {
  const verdict = verify(secret, headers, rawBody, nowMs);
  if (verdict !== "valid") throw refusal(verdict);
}
