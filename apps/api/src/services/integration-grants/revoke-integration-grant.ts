import { and, eq, inArray, integrationGrants } from "@fleet/db";
import { decideGrantGate } from "../approvals/grant-gate.ts";
import { type Actor, recordAudit } from "../shared/audit.ts";
import type { ServiceContext } from "../shared/context.ts";
import { gatesResolved } from "../shared/frames.ts";
import { requireFleet } from "../shared/tenancy.ts";
import { grantWebhookEvent } from "./grant-webhooks.ts";
import { grantNotChangeable, grantNotFound, toGrantView } from "./view.ts";

/**
 * Revokes a pending or approved grant. A pending grant's open gate is denied with it (first, in the
 * order an inbox answer takes its locks: gate, then grant), so the inbox stops asking. Audited in the
 * same transaction.
 */
export async function revokeIntegrationGrant(
  ctx: ServiceContext,
  actor: Actor,
  tenantId: string,
  input: { workspace_id: string; fleet_id: string; grant_id: string },
) {
  const now = ctx.now();
  const result = await ctx.db.transaction(async (tx) => {
    await requireFleet(tx, tenantId, input.workspace_id, input.fleet_id);
    const scope = and(
      eq(integrationGrants.id, input.grant_id),
      eq(integrationGrants.fleetId, input.fleet_id),
    );
    const [current] = await tx.select().from(integrationGrants).where(scope);
    if (current === undefined) throw grantNotFound(input.grant_id);
    if (current.status === "revoked") throw grantNotChangeable(current, "revoked again");
    const gate =
      current.status === "pending"
        ? await decideGrantGate(tx, current.gateId, "denied", actor.principal, "The grant was revoked.", now)
        : null;
    const [row] = await tx
      .update(integrationGrants)
      .set({ status: "revoked", decidedBy: actor.principal, decidedAt: now, updatedAt: now })
      .where(and(scope, inArray(integrationGrants.status, ["pending", "approved"])))
      .returning();
    if (row === undefined) {
      // Decided by someone else between the read and the write: answer what stands.
      const [standing] = await tx.select().from(integrationGrants).where(scope);
      throw grantNotChangeable(standing!, "revoked again");
    }
    const told = await grantWebhookEvent(tx, row, "grant.decided", now);
    await recordAudit(tx, {
      actor,
      at: now,
      tenantId,
      workspaceId: row.workspaceId,
      action: "integration_grant.revoke",
      target: `integration_grant:${row.id}`,
      details: { fleet_id: row.fleetId, service: row.service, was: current.status },
    });
    return { row, gate, told };
  });
  if (result.gate !== null) {
    ctx.gates.wake(result.gate.id);
    gatesResolved(ctx, [result.gate]);
  } else if (result.told) ctx.webhookOutbox?.kick();
  return toGrantView(result.row);
}
