import { type Database, eq, type Tx, webhookSecrets } from "@fleet/db";
import type { Vault } from "../../runtime/vault.ts";

/**
 * The name the vault binds a webhook secret to. `#` starts no secret name, so a sealed webhook secret
 * copied onto a secrets row (or the reverse) does not open.
 */
export const VAULT_NAME = "#webhook-secret";

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
