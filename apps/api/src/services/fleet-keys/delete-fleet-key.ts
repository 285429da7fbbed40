import { and, apiKeys, eq, fleets } from "@fleet/db";
import { type Actor, recordAudit } from "../shared/audit.ts";
import { notifyPrincipalChange, type ServiceContext } from "../shared/context.ts";
import { requireWorkspace } from "../shared/tenancy.ts";
import { fleetKeyNotFound } from "./fleet-key-rows.ts";

/**
 * Deletes a fleet key: it ends at once, and every instance has dropped what it cached of it (its open
 * streams end with it) before this answers.
 */
export async function deleteFleetKey(
  ctx: ServiceContext,
  actor: Actor,
  tenantId: string,
  input: { workspaceId: string; id: string },
): Promise<void> {
  const now = ctx.now();
  await ctx.db.transaction(async (tx) => {
    await requireWorkspace(tx, tenantId, input.workspaceId);
    const [row] = await tx
      .select({ id: apiKeys.id, keyName: apiKeys.keyName, fleetId: apiKeys.fleetId })
      .from(apiKeys)
      .innerJoin(fleets, eq(fleets.id, apiKeys.fleetId))
      .where(
        and(
          eq(apiKeys.id, input.id),
          eq(apiKeys.tenantId, tenantId),
          eq(fleets.workspaceId, input.workspaceId),
        ),
      )
      .for("update", { of: apiKeys });
    if (row === undefined) throw fleetKeyNotFound(input.id);
    await tx.delete(apiKeys).where(eq(apiKeys.id, row.id));
    await recordAudit(tx, {
      actor,
      at: now,
      tenantId,
      workspaceId: input.workspaceId,
      action: "fleet_key.delete",
      target: `fleet_key:${row.id}`,
      details: { key_name: row.keyName, fleet_id: row.fleetId },
    });
    await notifyPrincipalChange(tx, `key:${row.id}`);
  });
  await ctx.principalsChanged(`key:${input.id}`);
}
