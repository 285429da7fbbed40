import { Problem } from "@fleet/contracts";
import { and, apiKeys, eq, isNull } from "@fleet/db";
import { type Actor, recordAudit } from "../shared/audit.ts";
import { notifyPrincipalChange, type ServiceContext } from "../shared/context.ts";
import { apiKeyNotFound } from "./api-key-rows.ts";

/** Deletes a revoked key; an active one must be revoked first. */
export async function deleteApiKey(
  ctx: ServiceContext,
  actor: Actor,
  tenantId: string,
  id: string,
): Promise<void> {
  const now = ctx.now();
  await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .select({ revokedAt: apiKeys.revokedAt, keyName: apiKeys.keyName })
      .from(apiKeys)
      .where(and(eq(apiKeys.id, id), eq(apiKeys.tenantId, tenantId), isNull(apiKeys.fleetId)))
      .for("update");
    if (row === undefined) throw apiKeyNotFound(id);
    if (row.revokedAt === null) {
      throw new Problem("UZ-APIKEY-005", {
        detail: `API key ${id} is active; revoke it before deleting it.`,
        current_state: "active",
      });
    }
    await tx.delete(apiKeys).where(eq(apiKeys.id, id));
    await recordAudit(tx, {
      actor,
      at: now,
      tenantId,
      workspaceId: null,
      action: "api_key.delete",
      target: `api_key:${id}`,
      details: { key_name: row.keyName },
    });
    await notifyPrincipalChange(tx, `key:${id}`);
  });
  await ctx.principalsChanged(`key:${id}`);
}
