import { and, eq, secrets } from "@fleet/db";
import type { Actor } from "../shared/audit.ts";
import type { ServiceContext } from "../shared/context.ts";
import { requireWorkspace } from "../shared/tenancy.ts";
import { forgetMaskers } from "./lease-masker.ts";
import { auditSecret, notHeld } from "./stored-secrets.ts";

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
  forgetMaskers(ctx.vault, workspaceId);
}
