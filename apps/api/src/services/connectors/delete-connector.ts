import { and, connectors, eq } from "@fleet/db";
import { type Actor, recordAudit } from "../shared/audit.ts";
import type { ServiceContext } from "../shared/context.ts";
import { requireWorkspace } from "../shared/tenancy.ts";
import { requireProvider } from "./catalog.ts";

/** Disconnects: removes the connector, its sealed token and its routes. Idempotent. */
export async function deleteConnector(
  ctx: ServiceContext,
  actor: Actor,
  tenantId: string,
  workspaceId: string,
  provider: string,
): Promise<void> {
  requireProvider(provider);
  await requireWorkspace(ctx.db, tenantId, workspaceId);
  const now = ctx.now();
  await ctx.db.transaction(async (tx) => {
    const removed = await tx
      .delete(connectors)
      .where(and(eq(connectors.workspaceId, workspaceId), eq(connectors.provider, provider)))
      .returning({ teamId: connectors.teamId });
    if (removed.length === 0) return;
    await recordAudit(tx, {
      actor,
      at: now,
      tenantId,
      workspaceId,
      action: "connector.disconnect",
      target: `connector:${provider}`,
      details: { team_id: removed[0]!.teamId },
    });
  });
}
