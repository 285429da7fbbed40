import { apiKeys } from "@fleet/db";
import type { TenantPrincipal } from "../../auth/principal.ts";
import { FLEET_KEY_PREFIX } from "../../auth/tokens.ts";
import { newId } from "../../runtime/ids.ts";
import { newKeySecret } from "../api-keys/api-key-rows.ts";
import { assertKeyRoom, boundByMinter } from "../api-keys/key-bounds.ts";
import { type Actor, recordAudit } from "../shared/audit.ts";
import type { ServiceContext } from "../shared/context.ts";
import { requireFleet } from "../shared/tenancy.ts";

/**
 * Mints a fleet key (`agt_a…`) bound to one fleet of the workspace; the plaintext is returned here and
 * never stored. It lives in `api_keys` beside the tenant's API keys, so it is hashed, capped, bounded by
 * a minting key, rate-limited and revoked on every instance as they are.
 */
export async function createFleetKey(
  ctx: ServiceContext,
  actor: Actor,
  caller: TenantPrincipal,
  input: { workspaceId: string; fleetId: string; keyName: string },
) {
  const now = ctx.now();
  return ctx.db.transaction(async (tx) => {
    const fleet = await requireFleet(tx, caller.tenantId, input.workspaceId, input.fleetId);
    const terms = await boundByMinter(tx, ctx, caller, { expiresAt: null, rateLimit: null });
    await assertKeyRoom(tx, ctx, caller.tenantId, now);
    const secret = newKeySecret(FLEET_KEY_PREFIX);
    const id = newId(now);
    await tx.insert(apiKeys).values({
      id,
      tenantId: caller.tenantId,
      createdBy: caller.userId,
      keyName: input.keyName,
      description: "",
      keyHash: secret.keyHash,
      keyPrefix: secret.keyPrefix,
      createdAt: now,
      rateLimit: terms.rateLimit,
      expiresAt: terms.expiresAt,
      fleetId: fleet.id,
    });
    await recordAudit(tx, {
      actor,
      at: now,
      tenantId: caller.tenantId,
      workspaceId: input.workspaceId,
      action: "fleet_key.mint",
      target: `fleet_key:${id}`,
      details: { key_name: input.keyName, fleet_id: fleet.id, expires_at: terms.expiresAt },
    });
    return {
      id,
      key: secret.key,
      key_name: input.keyName,
      fleet_id: fleet.id,
      workspace_id: input.workspaceId,
      key_prefix: secret.keyPrefix,
      created_at: now,
      rate_limit: terms.rateLimit,
      expires_at: terms.expiresAt,
    };
  });
}
