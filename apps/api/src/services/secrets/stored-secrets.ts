import { Problem } from "@fleet/contracts";
import { and, asc, eq, secrets, type Tx } from "@fleet/db";
import { type Actor, recordAudit } from "../shared/audit.ts";
import type { ServiceContext } from "../shared/context.ts";
import { requireWorkspace } from "../shared/tenancy.ts";

export type SecretKind = "generic" | "provider_api_key";

/** The audit row of a secret change: the name only, never the value. */
export function auditSecret(
  tx: Tx,
  actor: Actor,
  at: number,
  tenantId: string,
  workspaceId: string,
  action: string,
  name: string,
) {
  return recordAudit(tx, {
    actor,
    at,
    tenantId,
    workspaceId,
    action,
    target: `secret:${name}`,
  });
}

export function notHeld(name: string): Problem {
  return new Problem("UZ-VAULT-003", { detail: `The workspace holds no secret named ${name}.` });
}

/** The workspace's secrets by name, oldest first: what each list shows, never a value. */
export async function storedSecrets(ctx: ServiceContext, tenantId: string, workspaceId: string) {
  await requireWorkspace(ctx.db, tenantId, workspaceId);
  const rows = await ctx.db
    .select({ name: secrets.name, created_at: secrets.createdAt, kind: secrets.kind })
    .from(secrets)
    .where(eq(secrets.workspaceId, workspaceId))
    .orderBy(asc(secrets.createdAt), asc(secrets.name));
  return rows.map((row) => ({ ...row, kind: row.kind as SecretKind }));
}

/** A secret's value, for the services that use one (provider keys, connectors); never served. */
export async function openSecret(ctx: ServiceContext, workspaceId: string, name: string) {
  const [row] = await ctx.db
    .select({ wrappedKey: secrets.wrappedKey, ciphertext: secrets.ciphertext })
    .from(secrets)
    .where(and(eq(secrets.workspaceId, workspaceId), eq(secrets.name, name)));
  if (row === undefined) throw notHeld(name);
  return ctx.vault.open(workspaceId, name, row);
}
