import { WEBHOOK_SECRET_PREFIX } from "@fleet/contracts";
import { eq, webhookSecrets } from "@fleet/db";
import { mintSecret } from "../../auth/tokens.ts";
import { type Actor, recordAudit } from "../shared/audit.ts";
import type { ServiceContext } from "../shared/context.ts";
import { requireWorkspace } from "../shared/tenancy.ts";

import { VAULT_NAME } from "./secret.ts";

/**
 * Makes the workspace's new webhook secret, replacing the one in force: the previous secret stops verifying
 * when this commits (no grace period: a rotation is most often a response to a leak). Audited in the
 * same transaction.
 */
export async function rotateWebhookSecret(
  ctx: ServiceContext,
  actor: Actor,
  tenantId: string,
  workspaceId: string,
) {
  await requireWorkspace(ctx.db, tenantId, workspaceId);
  const secret = mintSecret(WEBHOOK_SECRET_PREFIX);
  const sealed = ctx.vault.seal(workspaceId, VAULT_NAME, { secret });
  const now = ctx.now();
  await ctx.db.transaction(async (tx) => {
    const [previous] = await tx
      .select({ createdAt: webhookSecrets.createdAt })
      .from(webhookSecrets)
      .where(eq(webhookSecrets.workspaceId, workspaceId))
      .for("update");
    await tx
      .insert(webhookSecrets)
      .values({ workspaceId, ...sealed, createdAt: now })
      .onConflictDoUpdate({ target: webhookSecrets.workspaceId, set: { ...sealed, createdAt: now } });
    await recordAudit(tx, {
      actor,
      at: now,
      tenantId,
      workspaceId,
      action: "webhook_secret.rotate",
      target: `workspace:${workspaceId}`,
      details: { replaced: previous !== undefined },
    });
  });
  return { secret, created_at: now };
}
