import { type CliCredentialItem, Problem } from "@fleet/contracts";
import { and, cliCredentials, count, type Database, eq, gt, type Tx } from "@fleet/db";
import type { TenantPrincipal } from "../../auth/principal.ts";
import { newId } from "../../runtime/ids.ts";
import { type Actor, recordAudit } from "../shared/audit.ts";
import { notifyPrincipalChange, type ServiceContext } from "../shared/context.ts";
import { keysetPage } from "../shared/keyset.ts";

/** Writes a command-line credential's row: its id goes into the token as `cid`. */
export async function insertCliCredential(
  db: Database | Tx,
  input: {
    tenantId: string;
    userId: string;
    clientName: string;
    clientHost: string | null;
    ttlSeconds: number;
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

type Row = typeof cliCredentials.$inferSelect;

function toItem(row: Row, current: string | null | undefined): CliCredentialItem {
  return {
    id: row.id,
    client_name: row.clientName,
    client_host: row.clientHost,
    created_at: row.createdAt,
    expires_at: row.expiresAt,
    revoked_at: row.revokedAt,
    current: row.id === current,
  };
}

/** The caller's credentials in this tenant that have not expired, newest first. */
export async function listCliCredentials(
  ctx: ServiceContext,
  principal: TenantPrincipal,
  input: { starting_after?: string; limit: number },
) {
  const now = ctx.now();
  const mine = and(
    eq(cliCredentials.tenantId, principal.tenantId),
    eq(cliCredentials.userId, principal.userId),
    gt(cliCredentials.expiresAt, now),
  );
  const page = await keysetPage({
    bind: "cli-credentials",
    sort: cliCredentials.createdAt,
    id: cliCredentials.id,
    descending: true,
    limit: input.limit,
    starting_after: input.starting_after,
    read: ({ after, order, rows }) =>
      ctx.db
        .select()
        .from(cliCredentials)
        .where(and(mine, after))
        .orderBy(...order)
        .limit(rows),
    keyOf: (row) => ({ value: row.createdAt, id: row.id }),
    count: () => ctx.db.select({ n: count() }).from(cliCredentials).where(mine),
  });
  return {
    items: page.items.map((row) => toItem(row, principal.cliCredentialId)),
    total: page.total,
    next_cursor: page.next_cursor,
  };
}

/**
 * Revokes one of the caller's credentials. The answer waits until every instance has dropped it, so its
 * next request anywhere is refused and its streams end (they are tagged `cli:<id>`).
 */
export async function revokeCliCredential(
  ctx: ServiceContext,
  actor: Actor,
  principal: TenantPrincipal,
  id: string,
): Promise<void> {
  const now = ctx.now();
  const revoked = await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .select({ revokedAt: cliCredentials.revokedAt, clientName: cliCredentials.clientName })
      .from(cliCredentials)
      .where(
        and(
          eq(cliCredentials.id, id),
          eq(cliCredentials.tenantId, principal.tenantId),
          eq(cliCredentials.userId, principal.userId),
        ),
      )
      .for("update");
    if (row === undefined)
      throw new Problem("UZ-AUTH-019", { detail: `You hold no command-line credential ${id}.` });
    if (row.revokedAt !== null) return false;
    await tx.update(cliCredentials).set({ revokedAt: now }).where(eq(cliCredentials.id, id));
    await recordAudit(tx, {
      actor,
      at: now,
      tenantId: principal.tenantId,
      workspaceId: null,
      action: "cli_credential.revoke",
      target: `cli_credential:${id}`,
      details: { client_name: row.clientName },
    });
    await notifyPrincipalChange(tx, `cli:${id}`);
    return true;
  });
  if (revoked) await ctx.principalsChanged(`cli:${id}`);
}
