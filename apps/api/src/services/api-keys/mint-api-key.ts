import { MAX_KEY_LIFETIME_MS, Problem } from "@fleet/contracts";
import { apiKeys, type Database, type Tx } from "@fleet/db";
import type { TenantPrincipal } from "../../auth/principal.ts";
import { mintSecret, sha256Hex, TENANT_KEY_PREFIX } from "../../auth/tokens.ts";
import { newId } from "../../runtime/ids.ts";
import { assertGrantable, callerIn } from "../members/member-rules.ts";
import { type Actor, recordAudit } from "../shared/audit.ts";
import type { ServiceContext } from "../shared/context.ts";

/** How many characters of a key are kept and shown to tell keys apart: `agt_t` and 8 more (48 bits). */
const KEY_PREFIX_LENGTH = TENANT_KEY_PREFIX.length + 8;

interface NewApiKey {
  tenantId: string;
  userId: string;
  keyName: string;
  description: string;
  /** The key's own request quota per rate-limit window; null takes the instance's default. */
  rateLimit?: number | null;
  /** The scopes the key is narrowed to; null: all of its creator's current scopes. */
  scopes?: readonly string[] | null;
  /** When the key stops authenticating; null: never. */
  expiresAt?: number | null;
}

interface MintRequest extends Omit<NewApiKey, "scopes"> {
  /** Absent: as wide as the minting credential. */
  scopes?: readonly string[] | undefined;
}

/**
 * Mints a tenant API key; the plaintext is returned here and never stored. A key never holds more than
 * the credential that mints it: chosen scopes must be held by the caller (403 UZ-AUTH-022), and a caller
 * narrower than its member (a narrowed key or session) passes its own scopes on when none are chosen.
 */
export async function mintApiKey(
  ctx: ServiceContext,
  actor: Actor,
  caller: TenantPrincipal,
  input: MintRequest,
) {
  const now = ctx.now();
  if (input.expiresAt != null) assertExpiry(input.expiresAt, now);
  if (input.scopes !== undefined) assertGrantable(caller, input.scopes);
  return ctx.db.transaction(async (tx) => {
    let scopes: readonly string[] | null = input.scopes ?? null;
    if (scopes === null) {
      const member = await callerIn(tx, caller);
      const full =
        member.scopes.length === caller.scopes.length &&
        member.scopes.every((scope) => caller.scopes.includes(scope));
      if (!full) scopes = [...caller.scopes];
    }
    const minted = await insertApiKey(tx, { ...input, scopes }, now);
    await recordAudit(tx, {
      actor,
      at: now,
      tenantId: input.tenantId,
      workspaceId: null,
      action: "api_key.mint",
      target: `api_key:${minted.id}`,
      details: {
        key_name: input.keyName,
        rate_limit: input.rateLimit ?? null,
        scopes,
        expires_at: input.expiresAt ?? null,
      },
    });
    return minted;
  });
}

function assertExpiry(expiresAt: number, now: number): void {
  if (expiresAt <= now) {
    throw new Problem("UZ-REQ-001", { detail: "expires_at must be in the future." });
  }
  if (expiresAt > now + MAX_KEY_LIFETIME_MS) {
    throw new Problem("UZ-REQ-001", {
      detail: `expires_at must be at most ${MAX_KEY_LIFETIME_MS / 86_400_000} days ahead.`,
    });
  }
}

/** The step that stores a new key, in the caller's transaction when it has one (the tenant bootstrap's). */
export async function insertApiKey(db: Database | Tx, input: NewApiKey, now: number) {
  const key = mintSecret(TENANT_KEY_PREFIX);
  const id = newId(now);
  const keyPrefix = key.slice(0, KEY_PREFIX_LENGTH);
  const scopes = input.scopes == null ? null : [...input.scopes];
  const expiresAt = input.expiresAt ?? null;
  await db.insert(apiKeys).values({
    id,
    tenantId: input.tenantId,
    createdBy: input.userId,
    keyName: input.keyName,
    description: input.description,
    keyHash: sha256Hex(key),
    createdAt: now,
    rateLimit: input.rateLimit ?? null,
    keyPrefix,
    scopes,
    expiresAt,
  });
  return {
    created_at: now,
    id,
    key,
    key_name: input.keyName,
    rate_limit: input.rateLimit ?? null,
    key_prefix: keyPrefix,
    scopes,
    expires_at: expiresAt,
  };
}
