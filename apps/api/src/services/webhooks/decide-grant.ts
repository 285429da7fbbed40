import { randomBytes } from "node:crypto";
import { GRANT_WEBHOOK_RESOLVER, Problem, SIGNATURE_DRIFT_S } from "@fleet/contracts";
import { and, approvalGates, eq, fleets, integrationGrants, sql, webhookNonces } from "@fleet/db";
import { ruleNeedsPeople } from "../approvals/gate-view.ts";
import { decideGrantGate } from "../approvals/grant-gate.ts";
import { grantWebhookEvent } from "../integration-grants/grant-webhooks.ts";
import { grantNotChangeable, grantNotFound } from "../integration-grants/view.ts";
import { recordAudit } from "../shared/audit.ts";
import type { ServiceContext } from "../shared/context.ts";
import { gatesResolved } from "../shared/frames.ts";
import { holdIncomingSecret, workspaceWebhookSecret } from "./secret.ts";
import { refusal, requireSignature, type SignedHeaders, verify } from "./signature.ts";

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
 * Decides a pending grant from the signed grant-approval webhook, verified with the workspace's incoming
 * secret (never the one that signs its notices). The signature is checked before any transaction opens;
 * an unknown fleet is refused exactly as a signature that does not verify, so a caller learns nothing of
 * which fleets exist. The rest is one transaction and every refusal throws inside it, so a refused call
 * (a secret rotated since it was verified, replayed nonce, unknown or already decided grant, a gate whose
 * rule takes people) leaves nothing behind, its nonce included. The policy that governs the grant's gate
 * governs the webhook too: a rule that names its approvers or takes more than one approval is answered
 * by people, in the inbox (409 UZ-APPROVAL-009). Locks follow the inbox answer's order (the grant's gate,
 * then the grant), so the two never deadlock and exactly one of them decides.
 */
export async function decideGrant(
  ctx: ServiceContext,
  requestId: string,
  input: WebhookDecisionInput,
  signed: SignedHeaders & { rawBody: string | null },
) {
  const now = ctx.now();
  if (signed.rawBody === null) {
    throw new Problem("UZ-WEBHOOK-001", { detail: "A signed webhook is taken on its /v1 route only." });
  }
  const [fleet] = await ctx.db
    .select({ id: fleets.id, tenantId: fleets.tenantId, workspaceId: fleets.workspaceId })
    .from(fleets)
    .where(eq(fleets.id, input.fleet_id));
  if (fleet === undefined) {
    // Judged against a secret no one holds: the answer a known fleet gives these headers.
    const verdict = verify(randomBytes(32).toString("base64url"), signed, signed.rawBody, now);
    throw refusal(verdict === "valid" ? "mismatch" : verdict);
  }
  const secret = await workspaceWebhookSecret(ctx.db, ctx.vault, fleet.workspaceId, "incoming");
  if (secret === null) {
    throw new Problem("UZ-WEBHOOK-006", { detail: "The fleet's workspace has no webhook secret." });
  }
  requireSignature(secret, signed, signed.rawBody, now);

  const result = await ctx.db.transaction(async (tx) => {
    // Held until commit: a rotation waits for this decision, or this one sees it and is refused.
    await holdIncomingSecret(tx, fleet.workspaceId);
    if ((await workspaceWebhookSecret(tx, ctx.vault, fleet.workspaceId, "incoming")) !== secret) {
      throw refusal("mismatch");
    }

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
    if (current.gateId !== null) {
      const [gate] = await tx
        .select()
        .from(approvalGates)
        .where(eq(approvalGates.id, current.gateId))
        .for("update");
      if (gate !== undefined && ruleNeedsPeople(gate)) {
        throw new Problem("UZ-APPROVAL-009", {
          detail: `Rule "${gate.ruleName ?? "default"}" takes ${gate.requiredApprovals} approval(s)${gate.approvers === null ? "" : " from named approvers"}: people answer this grant's gate, in the inbox. The webhook decides only a gate that any one approver may.`,
          current_state: "pending",
        });
      }
    }
    const gate = await decideGrantGate(
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
    const told = await grantWebhookEvent(tx, row, "grant.decided", now);
    await recordAudit(tx, {
      actor: { principal: GRANT_WEBHOOK_RESOLVER, requestId },
      at: now,
      tenantId: fleet.tenantId,
      workspaceId: fleet.workspaceId,
      action: input.decision === "approved" ? "integration_grant.approve" : "integration_grant.deny",
      target: `integration_grant:${row.id}`,
      // The webhook's body carries no reason; the key is there as on every answer's row.
      details: { fleet_id: row.fleetId, service: row.service, gate_id: gate?.id ?? null, reason: null },
    });
    await tx.execute(sql`
      delete from webhook_nonces where (workspace_id, nonce) in (
        select workspace_id, nonce from webhook_nonces
        where workspace_id = ${fleet.workspaceId}::uuid and expires_at < ${now}::bigint
        limit ${NONCE_SWEEP} for update skip locked)`);
    return { row, gate, told };
  });
  if (result.gate !== null) {
    ctx.gates.wake(result.gate.id);
    gatesResolved(ctx, [result.gate]);
  } else if (result.told) ctx.webhookOutbox?.kick();
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
