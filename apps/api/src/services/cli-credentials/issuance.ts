import { cliCredentials, type Database, type Tx } from "@fleet/db";
import { newId } from "../../runtime/ids.ts";
import type { ServiceContext } from "../shared/context.ts";

/** Writes a command-line credential's row: its id goes into the token as `cid`. */
export async function insertCliCredential(
  db: Database | Tx,
  input: {
    tenantId: string;
    userId: string;
    clientName: string;
    clientHost: string | null;
    ttlSeconds: number;
    /** The credential that approved its sign-in (`session:<id>`): revoking that revokes this one. */
    approvedVia?: string | null;
  },
  now: number,
): Promise<{ id: string; expiresAt: number }> {
  const id = newId(now);
  // The token's exp has whole seconds: the row expires with it.
  const expiresAt = (Math.floor(now / 1000) + input.ttlSeconds) * 1000;
  await db.insert(cliCredentials).values({
    id,
    tenantId: input.tenantId,
    userId: input.userId,
    clientName: input.clientName,
    clientHost: input.clientHost,
    createdAt: now,
    expiresAt,
    approvedVia: input.approvedVia ?? null,
  });
  return { id, expiresAt };
}

/** Signs the token of a command-line credential whose row exists. */
export async function signCliCredential(
  ctx: ServiceContext,
  input: { credentialId: string; tenantId: string; userId: string; scopes: string[]; ttlSeconds: number },
  now: number,
): Promise<{ token: string; expiresAt: number }> {
  return ctx.sessions.sign(
    {
      sub: input.userId,
      kind: "cli",
      tenantId: input.tenantId,
      scopes: input.scopes,
      credentialId: input.credentialId,
    },
    input.ttlSeconds,
    now,
  );
}
