import { Problem } from "@fleet/contracts";
import { and, asc, eq, secrets, type Tx } from "@fleet/db";
import { newId } from "../../runtime/ids.ts";
import { type Actor, recordAudit } from "../shared/audit.ts";
import type { ServiceContext } from "../shared/context.ts";
import { uniqueViolation } from "../shared/errors.ts";
import { requireWorkspace } from "../shared/tenancy.ts";

type Kind = "generic" | "provider_api_key";

/** The audit row of a secret change: the name only, never the value. */
function auditSecret(
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

function notHeld(name: string): Problem {
  return new Problem("UZ-VAULT-003", { detail: `The workspace holds no secret named ${name}.` });
}

export async function listSecrets(ctx: ServiceContext, tenantId: string, workspaceId: string) {
  await requireWorkspace(ctx.db, tenantId, workspaceId);
  const rows = await ctx.db
    .select({ name: secrets.name, created_at: secrets.createdAt, kind: secrets.kind })
    .from(secrets)
    .where(eq(secrets.workspaceId, workspaceId))
    .orderBy(asc(secrets.createdAt), asc(secrets.name));
  return rows.map((row) => ({ ...row, kind: row.kind as Kind }));
}

export async function createSecret(
  ctx: ServiceContext,
  actor: Actor,
  tenantId: string,
  input: { workspace_id: string; name: string; data: Record<string, unknown>; kind: Kind },
) {
  await requireWorkspace(ctx.db, tenantId, input.workspace_id);
  const sealed = ctx.vault.seal(input.workspace_id, input.name, input.data);
  const now = ctx.now();
  try {
    await ctx.db.transaction(async (tx) => {
      await tx.insert(secrets).values({
        id: newId(now),
        workspaceId: input.workspace_id,
        name: input.name,
        kind: input.kind,
        ...sealed,
        createdAt: now,
        updatedAt: now,
      });
      await auditSecret(tx, actor, now, tenantId, input.workspace_id, "secret.create", input.name);
    });
  } catch (error) {
    if (uniqueViolation(error, "secrets_workspace_name_key")) {
      throw new Problem("UZ-VAULT-005", {
        detail: `The workspace already holds a secret named ${input.name}.`,
      });
    }
    throw error;
  }
  return { name: input.name, created_at: now, kind: input.kind };
}

/** Replaces the stored body whole, sealed afresh under a new data key. */
export async function replaceSecret(
  ctx: ServiceContext,
  actor: Actor,
  tenantId: string,
  input: { workspace_id: string; secret_name: string; data: Record<string, unknown> },
) {
  await requireWorkspace(ctx.db, tenantId, input.workspace_id);
  const sealed = ctx.vault.seal(input.workspace_id, input.secret_name, input.data);
  const now = ctx.now();
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .update(secrets)
      .set({ ...sealed, updatedAt: now })
      .where(and(eq(secrets.workspaceId, input.workspace_id), eq(secrets.name, input.secret_name)))
      .returning({ name: secrets.name });
    if (row === undefined) throw notHeld(input.secret_name);
    await auditSecret(tx, actor, now, tenantId, input.workspace_id, "secret.replace", row.name);
    return { name: row.name };
  });
}

export async function deleteSecret(
  ctx: ServiceContext,
  actor: Actor,
  tenantId: string,
  workspaceId: string,
  name: string,
) {
  await requireWorkspace(ctx.db, tenantId, workspaceId);
  const now = ctx.now();
  await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .delete(secrets)
      .where(and(eq(secrets.workspaceId, workspaceId), eq(secrets.name, name)))
      .returning({ name: secrets.name });
    if (row === undefined) throw notHeld(name);
    await auditSecret(tx, actor, now, tenantId, workspaceId, "secret.delete", row.name);
  });
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
