import { hasScope, Problem } from "@fleet/contracts";
import { and, apiKeys, count, eq, gt, isNull, or, type Tx } from "@fleet/db";
import type { TenantPrincipal } from "../../auth/principal.ts";
import { lockTenant } from "../members/member-rules.ts";
import type { ServiceContext } from "../shared/context.ts";

/** What a key may be given: an expiry and a request quota per window (null: none, and the default). */
export interface KeyTerms {
  expiresAt: number | null;
  rateLimit: number | null;
}

/**
 * A quota above the instance's default is an administrator's to give: without `apikey:admin`, 403
 * UZ-AUTH-022, as for any scope the caller lacks.
 */
export function assertQuotaGrantable(ctx: ServiceContext, caller: TenantPrincipal, rateLimit: number | null) {
  const defaultLimit = ctx.config.rateLimits.credential;
  if (rateLimit !== null && rateLimit > defaultLimit && !hasScope(caller.scopes, "apikey:admin")) {
    throw new Problem("UZ-AUTH-022", {
      detail: `A rate_limit above the instance default (${defaultLimit}) needs the scope apikey:admin.`,
    });
  }
}

/**
 * Bounds the terms a key asks for by the key that mints (or rotates) it: nothing outlives or outspends
 * the key it came from. Absent terms (null) take the minting key's own; terms beyond them are refused
 * (403 UZ-APIKEY-009). A person's session bounds nothing here. Read in the caller's transaction, so a
 * minting key revoked meanwhile is seen revoked.
 */
export async function boundByMinter(
  tx: Tx,
  ctx: ServiceContext,
  caller: TenantPrincipal,
  asked: KeyTerms,
): Promise<KeyTerms> {
  if (caller.apiKeyId === null) return asked;
  const [minter] = await tx
    .select({ expiresAt: apiKeys.expiresAt, rateLimit: apiKeys.rateLimit, revokedAt: apiKeys.revokedAt })
    .from(apiKeys)
    .where(eq(apiKeys.id, caller.apiKeyId));
  if (minter === undefined || minter.revokedAt !== null) {
    throw new Problem("UZ-APIKEY-004", { detail: "This API key was revoked." });
  }
  const terms = { ...asked };
  if (minter.expiresAt !== null) {
    if (terms.expiresAt === null) terms.expiresAt = minter.expiresAt;
    else if (terms.expiresAt > minter.expiresAt) {
      throw new Problem("UZ-APIKEY-009", {
        detail: `expires_at cannot be later than the minting key's own (${minter.expiresAt}).`,
      });
    }
  }
  const minterQuota = minter.rateLimit ?? ctx.config.rateLimits.credential;
  if (terms.rateLimit === null) {
    if (minter.rateLimit !== null && minter.rateLimit < ctx.config.rateLimits.credential) {
      terms.rateLimit = minter.rateLimit;
    }
  } else if (terms.rateLimit > minterQuota) {
    throw new Problem("UZ-APIKEY-009", {
      detail: `rate_limit cannot be above the minting key's own quota (${minterQuota}).`,
    });
  }
  return terms;
}

/**
 * Refuses a new key once the tenant holds FLEET_MAX_API_KEYS live ones (unrevoked, unexpired; API and
 * fleet keys alike): 409 UZ-APIKEY-008. Counted under the tenant's row lock, so concurrent mints take
 * turns and cannot together pass the cap.
 */
export async function assertKeyRoom(tx: Tx, ctx: ServiceContext, tenantId: string, now: number) {
  await lockTenant(tx, tenantId);
  const [row] = await tx
    .select({ n: count() })
    .from(apiKeys)
    .where(
      and(
        eq(apiKeys.tenantId, tenantId),
        isNull(apiKeys.revokedAt),
        or(isNull(apiKeys.expiresAt), gt(apiKeys.expiresAt, now)),
      ),
    );
  const max = ctx.config.maxApiKeys;
  if ((row?.n ?? 0) >= max) {
    throw new Problem("UZ-APIKEY-008", {
      detail: `The tenant holds ${max} live keys, the most this instance allows; revoke one first.`,
      current_state: "at_limit",
    });
  }
}
