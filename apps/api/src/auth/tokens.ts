import { hash, randomBytes, timingSafeEqual } from "node:crypto";

export const TENANT_KEY_PREFIX = "agt_t";
export const RUNNER_TOKEN_PREFIX = "agt_r";
/** A fleet key: bound to one fleet, acting as it (the origin's `agt_a`). */
export const FLEET_KEY_PREFIX = "agt_a";

/** A new secret with its prefix: 256 random bits, base64url. */
export function mintSecret(prefix: string): string {
  return `${prefix}${randomBytes(32).toString("base64url")}`;
}

/** Each request with a key or token hashes it once to find it; one-shot `hash` is ~4× cheaper than a Hash. */
export function sha256Hex(value: string): string {
  return hash("sha256", value, "hex");
}

/** Compares two strings in time independent of where they differ. */
export function constantTimeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
