import { MAX_KEY_LIFETIME_MS, Problem } from "@fleet/contracts";
import type { TenantPrincipal } from "../../auth/principal.ts";
import { assertGrantable, callerIn } from "../members/member-rules.ts";
import { type Actor, recordAudit } from "../shared/audit.ts";
import type { ServiceContext } from "../shared/context.ts";
import { insertApiKey, type NewApiKey } from "./api-key-rows.ts";
import { assertKeyRoom, assertQuotaGrantable, boundByMinter } from "./key-bounds.ts";

interface CreateRequest extends Omit<NewApiKey, "scopes"> {
  /** Absent: as wide as the creating credential. */
  scopes?: readonly string[] | undefined;
}

/**
 * Creates a tenant API key; the plaintext is returned here and never stored. A key never holds more than
 * the credential that creates it: chosen scopes must be held by the caller (403 UZ-AUTH-022), and a caller
 * narrower than its member (a narrowed key or session) passes its own scopes on when none are chosen. A
 * key minted by a key neither outlives nor outspends it (`boundByMinter`); a quota above the instance's
 * default needs `apikey:admin`; the tenant's live keys are capped (`assertKeyRoom`).
 */
export async function createApiKey(
  ctx: ServiceContext,
  actor: Actor,
  caller: TenantPrincipal,
  input: CreateRequest,
) {
  const now = ctx.now();
  if (input.expiresAt != null) assertExpiry(input.expiresAt, now);
  if (input.scopes !== undefined) assertGrantable(caller, input.scopes);
  assertQuotaGrantable(ctx, caller, input.rateLimit ?? null);
  return ctx.db.transaction(async (tx) => {
    const terms = await boundByMinter(tx, ctx, caller, {
      expiresAt: input.expiresAt ?? null,
      rateLimit: input.rateLimit ?? null,
    });
    await assertKeyRoom(tx, ctx, input.tenantId, now);
    let scopes: readonly string[] | null = input.scopes ?? null;
    if (scopes === null) {
      const member = await callerIn(tx, caller);
      const full =
        member.scopes.length === caller.scopes.length &&
        member.scopes.every((scope) => caller.scopes.includes(scope));
      if (!full) scopes = [...caller.scopes];
    }
    const minted = await insertApiKey(tx, { ...input, ...terms, scopes }, now);
    await recordAudit(tx, {
      actor,
      at: now,
      tenantId: input.tenantId,
      workspaceId: null,
      action: "api_key.mint",
      target: `api_key:${minted.id}`,
      details: {
        key_name: input.keyName,
        rate_limit: terms.rateLimit,
        scopes,
        expires_at: terms.expiresAt,
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
