import { Problem } from "@fleet/contracts";
import { and, apiKeys, eq, isNull } from "@fleet/db";
import { type Actor, recordAudit } from "../shared/audit.ts";
import { notifyPrincipalChange, type ServiceContext } from "../shared/context.ts";
import { apiKeyNotFound, toApiKeyItem } from "./api-key-rows.ts";
import { apiKeysRevokedWebhookEvents } from "./api-key-webhooks.ts";

/** Revokes a key, the one change an update makes; every instance refuses it from the moment this commits. */
export async function updateApiKey(ctx: ServiceContext, actor: Actor, tenantId: string, id: string) {
  const now = ctx.now();
  const revoked = await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(apiKeys)
      .where(and(eq(apiKeys.id, id), eq(apiKeys.tenantId, tenantId), isNull(apiKeys.fleetId)))
      .for("update");
    if (row === undefined) throw apiKeyNotFound(id);
    if (row.revokedAt !== null) {
      throw new Problem("UZ-APIKEY-006", {
        detail: `API key ${id} is already revoked.`,
        current_state: "revoked",
      });
    }
    const [updated] = await tx.update(apiKeys).set({ revokedAt: now }).where(eq(apiKeys.id, id)).returning();
    await recordAudit(tx, {
      actor,
      at: now,
      tenantId,
      workspaceId: null,
      action: "api_key.revoke",
      target: `api_key:${id}`,
      details: { key_name: row.keyName },
    });
    await notifyPrincipalChange(tx, `key:${id}`);
    return { item: toApiKeyItem(updated!), told: await apiKeysRevokedWebhookEvents(tx, [updated!], now) };
  });
  await ctx.principalsChanged(`key:${id}`);
  if (revoked.told) ctx.webhookOutbox?.kick();
  return revoked.item;
}
