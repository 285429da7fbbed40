import { Problem } from "@fleet/contracts";
import { and, cliCredentials, eq } from "@fleet/db";
import type { TenantPrincipal } from "../../auth/principal.ts";
import { type Actor, recordAudit } from "../shared/audit.ts";
import { notifyPrincipalChange, type ServiceContext } from "../shared/context.ts";
import { revokeApprovedThrough } from "./cascade.ts";

/**
 * Revokes one of the caller's credentials, and with it those approved through it (`revokeApprovedThrough`).
 * The answer waits until every instance has dropped them, so their next request anywhere is refused and
 * their streams end (they are tagged `cli:<id>`).
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
    if (row.revokedAt !== null) return [];
    await tx.update(cliCredentials).set({ revokedAt: now }).where(eq(cliCredentials.id, id));
    const approved = await revokeApprovedThrough(tx, [`cli:${id}`], now);
    await recordAudit(tx, {
      actor,
      at: now,
      tenantId: principal.tenantId,
      workspaceId: null,
      action: "cli_credential.revoke",
      target: `cli_credential:${id}`,
      details: { client_name: row.clientName, ...(approved.length > 0 ? { cascaded: approved } : {}) },
    });
    await notifyPrincipalChange(tx, `cli:${id}`);
    return [id, ...approved];
  });
  for (const gone of revoked) await ctx.principalsChanged(`cli:${gone}`);
}
