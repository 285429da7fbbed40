import { and, eq, secrets } from "@fleet/db";
import type { Actor } from "../shared/audit.ts";
import type { ServiceContext } from "../shared/context.ts";
import { requireWorkspace } from "../shared/tenancy.ts";
import { forgetMaskers } from "./lease-masker.ts";
import { auditSecret, notHeld } from "./stored-secrets.ts";

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
  const replaced = await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .update(secrets)
      .set({ ...sealed, updatedAt: now })
      .where(and(eq(secrets.workspaceId, input.workspace_id), eq(secrets.name, input.secret_name)))
      .returning({ name: secrets.name });
    if (row === undefined) throw notHeld(input.secret_name);
    await auditSecret(tx, actor, now, tenantId, input.workspace_id, "secret.replace", row.name);
    return { name: row.name };
  });
  // This instance's runs mask the new value from now on (others within MASKER_TTL_MS).
  forgetMaskers(ctx.vault, input.workspace_id);
  return replaced;
}
