import { WEBHOOK_SECRET_PREFIX } from "@fleet/contracts";
import { and, type Database, eq, type Tx, webhookSecrets } from "@fleet/db";
import { mintSecret } from "../../auth/tokens.ts";
import type { Vault } from "../../runtime/vault.ts";
import { type Actor, recordAudit } from "../shared/audit.ts";
import type { ServiceContext } from "../shared/context.ts";
import { requireWorkspace } from "../shared/tenancy.ts";

/**
 * Which way a webhook secret works: `incoming` verifies the grant-approval webhook, `outgoing` signs the
 * notices the service sends. One secret for both let a receiver of notices approve grants.
 */
export type Direction = "incoming" | "outgoing";

/**
 * The name the vault binds each direction's secret to. `#` starts no secret name, so a sealed webhook
 * secret copied onto a secrets row (or the reverse), or onto the other direction, does not open. The
 * outgoing name is the one the single secret had before there were two: it became the outgoing secret.
 */
const VAULT_NAMES: Record<Direction, string> = {
  incoming: "#grant-webhook-secret",
  outgoing: "#webhook-secret",
};

/** The audit action a rotation records. */
const ROTATE_ACTIONS: Record<Direction, string> = {
  incoming: "webhook_secret.rotate",
  outgoing: "notice_secret.rotate",
};

const inDirection = (workspaceId: string, direction: Direction) =>
  and(eq(webhookSecrets.workspaceId, workspaceId), eq(webhookSecrets.direction, direction));

/**
 * The workspace's secret in force for `direction`, opened, or null when it has none. Runs in the caller's
 * transaction when given one (on PGlite the outer handle must not be used inside a transaction). Never
 * served or logged.
 */
export async function workspaceWebhookSecret(
  db: Database | Tx,
  vault: Vault,
  workspaceId: string,
  direction: Direction,
): Promise<string | null> {
  const [row] = await db
    .select({ wrappedKey: webhookSecrets.wrappedKey, ciphertext: webhookSecrets.ciphertext })
    .from(webhookSecrets)
    .where(inDirection(workspaceId, direction));
  if (row === undefined) return null;
  const opened = vault.open(workspaceId, VAULT_NAMES[direction], row);
  return typeof opened.secret === "string" ? opened.secret : null;
}

/**
 * Makes the workspace's new secret for `direction`, replacing the one in force: the previous secret stops
 * verifying when this commits (no grace period: a rotation is most often a response to a leak). Audited in
 * the same transaction.
 */
export async function rotateSecret(
  ctx: ServiceContext,
  actor: Actor,
  tenantId: string,
  workspaceId: string,
  direction: Direction,
) {
  await requireWorkspace(ctx.db, tenantId, workspaceId);
  const secret = mintSecret(WEBHOOK_SECRET_PREFIX);
  const sealed = ctx.vault.seal(workspaceId, VAULT_NAMES[direction], { secret });
  const now = ctx.now();
  await ctx.db.transaction(async (tx) => {
    const [previous] = await tx
      .select({ createdAt: webhookSecrets.createdAt })
      .from(webhookSecrets)
      .where(inDirection(workspaceId, direction))
      .for("update");
    await tx
      .insert(webhookSecrets)
      .values({ workspaceId, direction, ...sealed, createdAt: now })
      .onConflictDoUpdate({
        target: [webhookSecrets.workspaceId, webhookSecrets.direction],
        set: { ...sealed, createdAt: now },
      });
    await recordAudit(tx, {
      actor,
      at: now,
      tenantId,
      workspaceId,
      action: ROTATE_ACTIONS[direction],
      target: `workspace:${workspaceId}`,
      details: { replaced: previous !== undefined },
    });
  });
  return { secret, created_at: now };
}

/** Whether the workspace has a secret for `direction`, and since when; never the secret. */
export async function secretState(
  ctx: ServiceContext,
  tenantId: string,
  workspaceId: string,
  direction: Direction,
) {
  await requireWorkspace(ctx.db, tenantId, workspaceId);
  const [row] = await ctx.db
    .select({ createdAt: webhookSecrets.createdAt })
    .from(webhookSecrets)
    .where(inDirection(workspaceId, direction));
  return { configured: row !== undefined, created_at: row?.createdAt ?? null };
}

/** The row a decision holds until it commits: a rotation of the incoming secret waits for it, or it sees it. */
export async function holdIncomingSecret(tx: Tx, workspaceId: string): Promise<void> {
  await tx
    .select({ workspaceId: webhookSecrets.workspaceId })
    .from(webhookSecrets)
    .where(inDirection(workspaceId, "incoming"))
    .for("share");
}
