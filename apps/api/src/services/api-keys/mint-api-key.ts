import { apiKeys, type Database, type Tx } from "@fleet/db";
import { mintSecret, sha256Hex, TENANT_KEY_PREFIX } from "../../auth/tokens.ts";
import { newId } from "../../runtime/ids.ts";
import { type Actor, recordAudit } from "../audit/record.ts";
import type { ServiceContext } from "../context.ts";

interface NewApiKey {
  tenantId: string;
  userId: string;
  keyName: string;
  description: string;
  /** The key's own request quota per rate-limit window; null takes the instance's default. */
  rateLimit?: number | null;
}

/** Mints a tenant API key; the plaintext is returned here and never stored. */
export async function mintApiKey(ctx: ServiceContext, actor: Actor, input: NewApiKey) {
  const now = ctx.now();
  return ctx.db.transaction(async (tx) => {
    const minted = await insertApiKey(tx, input, now);
    await recordAudit(tx, {
      actor,
      at: now,
      tenantId: input.tenantId,
      workspaceId: null,
      action: "api_key.mint",
      target: `api_key:${minted.id}`,
      details: { key_name: input.keyName, rate_limit: input.rateLimit ?? null },
    });
    return minted;
  });
}

/** The step that stores a new key, in the caller's transaction when it has one (the tenant bootstrap's). */
export async function insertApiKey(db: Database | Tx, input: NewApiKey, now: number) {
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
    rateLimit: input.rateLimit ?? null,
  });
  return { created_at: now, id, key, key_name: input.keyName, rate_limit: input.rateLimit ?? null };
}
