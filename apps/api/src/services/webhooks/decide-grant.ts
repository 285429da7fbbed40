import { GRANT_WEBHOOK_RESOLVER, Problem, SIGNATURE_DRIFT_S } from "@fleet/contracts";
import { and, eq, fleets, integrationGrants, sql, webhookNonces, webhookSecrets } from "@fleet/db";
import { decideGrantGate } from "../approvals/grant-gate.ts";
import { grantNotChangeable, grantNotFound } from "../integration-grants/view.ts";
import { recordAudit } from "../shared/audit.ts";
import type { ServiceContext } from "../shared/context.ts";
import { gatesResolved } from "../shared/frames.ts";
import { workspaceWebhookSecret } from "./secret.ts";
import { requireSignature, type SignedHeaders } from "./signature.ts";

export interface WebhookDecisionInput {
  fleet_id: string;
  grant_id: string;
  decision: "approved" | "denied";
  nonce: string;
}

/**
 * A nonce is remembered until no call carrying it can pass the drift check: a call verifies only while
 * `|now - ts| <= 300 s`, and `ts <= used_at + 300 s`, so every such call ends by `used_at + 600 s`.
 */
const NONCE_TTL_MS = 2 * SIGNATURE_DRIFT_S * 1000;
/** Expired nonces one call clears (skipping rows other calls hold). */
const NONCE_SWEEP = 100;

/**
 * Decides a pending grant from the signed grant-approval webhook. All of it is one transaction and every
 * refusal throws inside it, so a refused call (unknown fleet, no secret, bad or stale signature, replayed
 * nonce, unknown or already decided grant) leaves nothing behind, its nonce included. The signature is
 * checked with the secret in force when the transaction reads it (a rotation waits for it, or it sees the
 * rotation); the nonce is spent only by a verified call. Locks follow the inbox answer's order (the
 * grant's gate, then the grant), so the two never deadlock and exactly one of them decides.
 */
export async function decideGrant(
  ctx: ServiceContext,
  requestId: string,
  input: WebhookDecisionInput,
  signed: SignedHeaders & { rawBody: string | null },
) {
  const now = ctx.now();
  const result = await ctx.db.transaction(async (tx) => {
    const [fleet] = await tx
      .select({ id: fleets.id, tenantId: fleets.tenantId, workspaceId: fleets.workspaceId })
      .from(fleets)
      .where(eq(fleets.id, input.fleet_id));
    if (fleet === undefined) {
      throw new Problem("UZ-WEBHOOK-005", { detail: `No fleet ${input.fleet_id} takes webhooks.` });
    }
    // Held until commit: a rotation of the secret waits for this decision, or this one sees it.
    await tx
      .select({ workspaceId: webhookSecrets.workspaceId })
      .from(webhookSecrets)
      .where(eq(webhookSecrets.workspaceId, fleet.workspaceId))
      .for("share");
    const secret = await workspaceWebhookSecret(tx, ctx.vault, fleet.workspaceId);
    if (secret === null) {
      throw new Problem("UZ-WEBHOOK-006", { detail: "The fleet's workspace has no webhook secret." });
    }
    if (signed.rawBody === null) {
      throw new Problem("UZ-WEBHOOK-001", { detail: "A signed webhook is taken on its /v1 route only." });
    }
    requireSignature(secret, signed, signed.rawBody, now);

    const [spent] = await tx
      .insert(webhookNonces)
      .values({
        workspaceId: fleet.workspaceId,
        nonce: input.nonce,
        usedAt: now,
        expiresAt: now + NONCE_TTL_MS,
      })
      .onConflictDoNothing()
      .returning({ nonce: webhookNonces.nonce });
    if (spent === undefined) {
      throw new Problem("UZ-WEBHOOK-004", { detail: "This nonce was already used; send a new one." });
    }

    const scope = and(eq(integrationGrants.id, input.grant_id), eq(integrationGrants.fleetId, fleet.id));
    const [current] = await tx.select().from(integrationGrants).where(scope);
    if (current === undefined) throw grantNotFound(input.grant_id);
    if (current.status !== "pending") throw grantNotChangeable(current, "decided again");
    const gateId = await decideGrantGate(
      tx,
      current.gateId,
      input.decision,
      GRANT_WEBHOOK_RESOLVER,
      "Decided through the grant-approval webhook.",
      now,
    );
    const [row] = await tx
      .update(integrationGrants)
      .set({
        status: input.decision === "approved" ? "approved" : "revoked",
        decidedBy: GRANT_WEBHOOK_RESOLVER,
        decidedAt: now,
        updatedAt: now,
      })
      .where(and(scope, eq(integrationGrants.status, "pending")))
      .returning();
    if (row === undefined) {
      // An inbox answer decided it between the read and the write: that answer stands.
      const [standing] = await tx.select().from(integrationGrants).where(scope);
      throw grantNotChangeable(standing!, "decided again");
    }
    await recordAudit(tx, {
      actor: { principal: GRANT_WEBHOOK_RESOLVER, requestId },
      at: now,
      tenantId: fleet.tenantId,
      workspaceId: fleet.workspaceId,
      action: input.decision === "approved" ? "integration_grant.approve" : "integration_grant.deny",
      target: `integration_grant:${row.id}`,
      details: { fleet_id: row.fleetId, service: row.service, gate_id: gateId },
    });
    await tx.execute(sql`
      delete from webhook_nonces where (workspace_id, nonce) in (
        select workspace_id, nonce from webhook_nonces
        where workspace_id = ${fleet.workspaceId}::uuid and expires_at < ${now}::bigint
        limit ${NONCE_SWEEP} for update skip locked)`);
    return { row, gateId };
  });
  if (result.gateId !== null) {
    ctx.gates.wake(result.gateId);
    gatesResolved(ctx, [result.gateId]);
  }
  const { row } = result;
  return {
    grant_id: row.id,
    fleet_id: row.fleetId,
    service: row.service,
    status: row.status as "approved" | "revoked",
    decided_at: now,
    decided_by: GRANT_WEBHOOK_RESOLVER,
  };
}
