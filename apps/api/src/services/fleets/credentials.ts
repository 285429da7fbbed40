import { Problem } from "@fleet/contracts";
import { and, type Database, eq, inArray, secrets, type Tx } from "@fleet/db";

/** Refuses (424 UZ-BUNDLE-003) a definition needing credentials the workspace does not hold as secrets. */
export async function requireCredentials(
  db: Database | Tx,
  workspaceId: string,
  required: readonly string[],
): Promise<void> {
  if (required.length === 0) return;
  const held = await db
    .select({ name: secrets.name })
    .from(secrets)
    .where(and(eq(secrets.workspaceId, workspaceId), inArray(secrets.name, [...required])));
  const heldNames = new Set(held.map((row) => row.name));
  const missing = required.filter((name) => !heldNames.has(name));
  if (missing.length > 0) {
    throw new Problem("UZ-BUNDLE-003", {
      detail: `The workspace lacks credentials this fleet needs: ${missing.join(", ")}.`,
      // The spec's clients read missing_secrets (shared decisions); the format names missing_credentials.
      missing_credentials: missing,
      missing_secrets: missing,
    });
  }
}
