import { Problem } from "@fleet/contracts";
import { and, eq, runners } from "@fleet/db";
import type { Actor } from "../shared/audit.ts";
import type { ServiceContext } from "../shared/context.ts";
import { auditRunner, runnerNotFound } from "./runner-admin.ts";

export async function deleteRunner(ctx: ServiceContext, actor: Actor, id: string): Promise<void> {
  const now = ctx.now();
  await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .select({ adminState: runners.adminState, hostId: runners.hostId })
      .from(runners)
      .where(eq(runners.id, id))
      .for("update");
    if (row === undefined) throw runnerNotFound(id);
    if (row.adminState !== "revoked") {
      throw new Problem("UZ-RUN-015", {
        detail: "Revoke the runner before deleting it.",
        current_state: row.adminState,
      });
    }
    await tx.delete(runners).where(and(eq(runners.id, id), eq(runners.adminState, "revoked")));
    await auditRunner(tx, actor, now, "runner.delete", id, { host_id: row.hostId });
  });
}
