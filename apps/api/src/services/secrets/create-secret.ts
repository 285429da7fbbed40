import { Problem } from "@fleet/contracts";
import { secrets } from "@fleet/db";
import { newId } from "../../runtime/ids.ts";
import type { Actor } from "../shared/audit.ts";
import type { ServiceContext } from "../shared/context.ts";
import { uniqueViolation } from "../shared/errors.ts";
import { requireWorkspace } from "../shared/tenancy.ts";
import { forgetMaskers } from "./lease-masker.ts";
import { auditSecret, type SecretKind } from "./stored-secrets.ts";

export async function createSecret(
  ctx: ServiceContext,
  actor: Actor,
  tenantId: string,
  input: { workspace_id: string; name: string; data: Record<string, unknown>; kind: SecretKind },
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
  forgetMaskers(ctx.vault, input.workspace_id);
  return { name: input.name, created_at: now, kind: input.kind };
}
