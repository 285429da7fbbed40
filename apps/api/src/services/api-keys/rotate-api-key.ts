import { Problem } from "@fleet/contracts";
import { and, apiKeys, eq, isNull } from "@fleet/db";
import type { TenantPrincipal } from "../../auth/principal.ts";
import { type Actor, recordAudit } from "../shared/audit.ts";
import { notifyPrincipalChange, type ServiceContext } from "../shared/context.ts";
import { apiKeyNotFound, newKeySecret } from "./api-key-rows.ts";
import { boundByMinter } from "./key-bounds.ts";

/**
 * Gives a key a new secret, keeping everything else. The previous secret keeps authenticating for the
 * grace period (0: not at all); a secret from an earlier rotation ends now. Every instance drops what it
 * cached of the key before this answers, so a 0-second grace ends the old secret everywhere at once.
 */
export async function rotateApiKey(
  ctx: ServiceContext,
  actor: Actor,
  caller: TenantPrincipal,
  input: { id: string; graceSeconds: number },
) {
  const now = ctx.now();
  const rotated = await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(apiKeys)
      .where(and(eq(apiKeys.id, input.id), eq(apiKeys.tenantId, caller.tenantId), isNull(apiKeys.fleetId)))
      .for("update");
    if (row === undefined) throw apiKeyNotFound(input.id);
    if (row.revokedAt !== null) {
      throw new Problem("UZ-APIKEY-006", {
        detail: `API key ${input.id} is revoked; a revoked key cannot be rotated.`,
        current_state: "revoked",
      });
    }
    // A key rotating a key hands out a secret to it: the key it rotates may not outlive or outspend it.
    const terms = { expiresAt: row.expiresAt, rateLimit: row.rateLimit };
    const bounded = await boundByMinter(tx, ctx, caller, terms);
    if (bounded.expiresAt !== terms.expiresAt || bounded.rateLimit !== terms.rateLimit) {
      throw new Problem("UZ-APIKEY-009", {
        detail: `API key ${input.id} outlives or outspends the key rotating it.`,
      });
    }
    const secret = newKeySecret();
    const previousExpiresAt = input.graceSeconds === 0 ? null : now + input.graceSeconds * 1000;
    await tx
      .update(apiKeys)
      .set({
        keyHash: secret.keyHash,
        keyPrefix: secret.keyPrefix,
        previousKeyHash: previousExpiresAt === null ? null : row.keyHash,
        previousExpiresAt,
        rotatedAt: now,
      })
      .where(eq(apiKeys.id, row.id));
    await recordAudit(tx, {
      actor,
      at: now,
      tenantId: caller.tenantId,
      workspaceId: null,
      action: "api_key.rotate",
      target: `api_key:${row.id}`,
      details: {
        key_name: row.keyName,
        grace_period_seconds: input.graceSeconds,
        previous_key_expires_at: previousExpiresAt,
      },
    });
    await notifyPrincipalChange(tx, `key:${row.id}`);
    return {
      id: row.id,
      key: secret.key,
      key_name: row.keyName,
      key_prefix: secret.keyPrefix,
      rate_limit: row.rateLimit,
      scopes: row.scopes,
      expires_at: row.expiresAt,
      rotated_at: now,
      previous_key_expires_at: previousExpiresAt,
    };
  });
  await ctx.principalsChanged(`key:${input.id}`);
  return rotated;
}
