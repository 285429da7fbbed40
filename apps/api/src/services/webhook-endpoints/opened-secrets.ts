import type { Vault } from "../../runtime/vault.ts";
import type { SealedClaim } from "./delivery-attempt.ts";
import { signingSecrets } from "./endpoint-rows.ts";

/** An endpoint's opened secrets, with the sealed values they came from (a rotation changes them). */
interface Opened {
  wrappedKey: string;
  ciphertext: string;
  secret: string;
  previousWrappedKey: string | null;
  previousCiphertext: string | null;
  /** The previous secret once opened; undefined until a delivery within its 24 hours needs it. */
  previous: string | undefined;
}

/** Endpoints whose opened secrets a deliverer keeps (the oldest entry goes first past it). */
const OPENED_MAX = 1_000;
const openedSecrets = new WeakMap<Vault, Map<string, Opened>>();

/**
 * The secrets a delivery signs with (`signingSecrets`), opened once per endpoint and sealed value rather
 * than per attempt: the claim reads the endpoint's sealed values with each delivery, and an entry whose
 * values differ (a rotation) is opened again, so a rotation takes effect from the next claim. The previous
 * secret signs only within its 24 hours, checked at each attempt. Kept in memory only, never logged.
 */
export function secretsOf(vault: Vault, claimed: SealedClaim, now: number): string[] {
  let cache = openedSecrets.get(vault);
  if (cache === undefined) {
    cache = new Map();
    openedSecrets.set(vault, cache);
  }
  let opened = cache.get(claimed.endpoint_id);
  if (
    opened === undefined ||
    opened.ciphertext !== claimed.ciphertext ||
    opened.wrappedKey !== claimed.wrapped_key ||
    opened.previousCiphertext !== claimed.previous_ciphertext ||
    opened.previousWrappedKey !== claimed.previous_wrapped_key
  ) {
    const [secret] = signingSecrets(vault, endpointSealed(claimed, null), now);
    opened = {
      wrappedKey: claimed.wrapped_key,
      ciphertext: claimed.ciphertext,
      secret: secret!,
      previousWrappedKey: claimed.previous_wrapped_key,
      previousCiphertext: claimed.previous_ciphertext,
      previous: undefined,
    };
    cache.delete(claimed.endpoint_id);
    if (cache.size >= OPENED_MAX) cache.delete(cache.keys().next().value!);
    cache.set(claimed.endpoint_id, opened);
  }
  const expires = claimed.previous_expires_at === null ? null : Number(claimed.previous_expires_at);
  if (claimed.previous_ciphertext === null || expires === null || expires <= now) return [opened.secret];
  opened.previous ??= signingSecrets(vault, endpointSealed(claimed, expires), now)[1];
  return opened.previous === undefined ? [opened.secret] : [opened.secret, opened.previous];
}

function endpointSealed(claimed: SealedClaim, previousExpiresAt: number | null) {
  return {
    id: claimed.endpoint_id,
    workspaceId: claimed.workspace_id,
    wrappedKey: claimed.wrapped_key,
    ciphertext: claimed.ciphertext,
    previousWrappedKey: previousExpiresAt === null ? null : claimed.previous_wrapped_key,
    previousCiphertext: previousExpiresAt === null ? null : claimed.previous_ciphertext,
    previousExpiresAt,
  };
}
