import type { Sealed } from "../../runtime/vault.ts";
import { openTenantKey } from "../providers/tenant-key.ts";
import { openSecret } from "../secrets/stored-secrets.ts";
import type { ServiceContext } from "../shared/context.ts";

/** How long an opened key is kept in this process after it was last opened. */
export const OPENED_KEY_TTL_MS = 60_000;
/** Keys kept at most (tenants with calls in the last minute); past it the cache starts over. */
const MAX_KEYS = 10_000;

interface Opened {
  /** The ciphertext it was opened from: a key saved again is sealed afresh (a new IV), so it differs. */
  ciphertext: string;
  apiKey: string | null;
  until: number;
}

/** Per vault (one per API instance): tests run several instances in one process. */
const caches = new WeakMap<object, Map<string, Opened>>();

/**
 * The provider key of a call, opened from the sealed copy the admission statement just read, and kept
 * opened in this process for `OPENED_KEY_TTL_MS` so the next calls skip the unwrap and decrypt. It is
 * used again only while the stored ciphertext is the one it was opened from: the admission statement
 * reads the stored row on every call, so a key replaced or removed on any instance is never used after
 * the change commits (no staleness across instances; the TTL only bounds how long a plaintext key that
 * is no longer called with stays in memory).
 */
export async function openedKey(
  ctx: ServiceContext,
  tenantId: string,
  choice: {
    sealed: Sealed | null;
    platformSecret: { workspaceId: string; name: string } | null;
  },
): Promise<string | null> {
  const platform = choice.platformSecret;
  const sealed = choice.sealed;
  if (sealed === null) {
    // The platform's secret is gone: opening it the usual way answers its refusal.
    return platform === null ? null : platformKey(await openSecret(ctx, platform.workspaceId, platform.name));
  }
  let cache = caches.get(ctx.vault);
  if (cache === undefined) {
    cache = new Map();
    caches.set(ctx.vault, cache);
  }
  const slot = platform === null ? `tenant:${tenantId}` : `platform:${platform.workspaceId}:${platform.name}`;
  const now = ctx.now();
  const kept = cache.get(slot);
  if (kept !== undefined && kept.ciphertext === sealed.ciphertext && kept.until > now) return kept.apiKey;
  const apiKey =
    platform === null
      ? openTenantKey(ctx, tenantId, sealed)
      : platformKey(ctx.vault.open(platform.workspaceId, platform.name, sealed));
  if (cache.size >= MAX_KEYS) cache.clear();
  cache.set(slot, { ciphertext: sealed.ciphertext, apiKey, until: now + OPENED_KEY_TTL_MS });
  return apiKey;
}

function platformKey(data: Record<string, unknown>): string | null {
  return typeof data.api_key === "string" && data.api_key !== "" ? data.api_key : null;
}
