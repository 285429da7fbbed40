import { apiKeys, type Database, type Tx } from "@fleet/db";
import { mintSecret, sha256Hex, TENANT_KEY_PREFIX } from "../../auth/tokens.ts";
import { newId } from "../../runtime/ids.ts";

/** Mints a tenant API key; the plaintext is returned here and never stored. */
export async function mintApiKey(
  db: Database | Tx,
  input: { tenantId: string; userId: string; keyName: string; description: string },
  now: number,
) {
  const key = mintSecret(TENANT_KEY_PREFIX);
  const id = newId(now);
  await db.insert(apiKeys).values({
    id,
    tenantId: input.tenantId,
    createdBy: input.userId,
    keyName: input.keyName,
    description: input.description,
    keyHash: sha256Hex(key),
    createdAt: now,
  });
  return { created_at: now, id, key, key_name: input.keyName };
}
