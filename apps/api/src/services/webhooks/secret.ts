import { WEBHOOK_SECRET_PREFIX } from "@fleet/contracts";
import { type Database, eq, type Tx, webhookSecrets } from "@fleet/db";
import { mintSecret } from "../../auth/tokens.ts";
import type { Vault } from "../../runtime/vault.ts";
import { type Actor, recordAudit } from "../shared/audit.ts";
import type { ServiceContext } from "../shared/context.ts";
import { requireWorkspace } from "../shared/tenancy.ts";

/**
 * The name the vault binds a webhook secret to. `#` starts no secret name, so a sealed webhook secret
 * copied onto a secrets row (or the reverse) does not open.
 */
const VAULT_NAME = "#webhook-secret";

/**
 * Mints the workspace's webhook secret, replacing the one in force: the previous secret stops verifying
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

/** Whether the workspace has a webhook secret, and since when; never the secret. */
export async function webhookSecretState(ctx: ServiceContext, tenantId: string, workspaceId: string) {
  await requireWorkspace(ctx.db, tenantId, workspaceId);
  const [row] = await ctx.db
    .select({ createdAt: webhookSecrets.createdAt })
    .from(webhookSecrets)
    .where(eq(webhookSecrets.workspaceId, workspaceId));
  return { configured: row !== undefined, created_at: row?.createdAt ?? null };
}

/**
 * The workspace's webhook secret in force, opened, or null when it has none: for the services that sign
 * outgoing calls and verify incoming ones. Runs in the caller's transaction when given one (on PGlite the
 * outer handle must not be used inside a transaction). Never served or logged.
 */
export async function workspaceWebhookSecret(
  db: Database | Tx,
  vault: Vault,
  workspaceId: string,
): Promise<string | null> {
  const [row] = await db
    .select({ wrappedKey: webhookSecrets.wrappedKey, ciphertext: webhookSecrets.ciphertext })
    .from(webhookSecrets)
    .where(eq(webhookSecrets.workspaceId, workspaceId));
  if (row === undefined) return null;
  const opened = vault.open(workspaceId, VAULT_NAME, row);
  return typeof opened.secret === "string" ? opened.secret : null;
}
