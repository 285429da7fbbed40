import { eq, webhookSecrets } from "@fleet/db";
import type { ServiceContext } from "../shared/context.ts";
import { requireWorkspace } from "../shared/tenancy.ts";

/** Whether the workspace has a webhook secret, and since when; never the secret. */
export async function getWebhookSecret(ctx: ServiceContext, tenantId: string, workspaceId: string) {
  await requireWorkspace(ctx.db, tenantId, workspaceId);
  const [row] = await ctx.db
    .select({ createdAt: webhookSecrets.createdAt })
    .from(webhookSecrets)
    .where(eq(webhookSecrets.workspaceId, workspaceId));
  return { configured: row !== undefined, created_at: row?.createdAt ?? null };
}
