import { Problem } from "@fleet/contracts";
import { and, approvalGates, eq, integrationGrants, type Tx } from "@fleet/db";
import { newId } from "../../runtime/ids.ts";
import { openGrantGate } from "../approvals/grant-gate.ts";
import { type Actor, recordAudit } from "../shared/audit.ts";
import type { ServiceContext } from "../shared/context.ts";
import { type GateWithWebhookId, gatesOpened } from "../shared/frames.ts";
import { requireFleet } from "../shared/tenancy.ts";
import { grantWebhookEvent } from "./grant-webhooks.ts";
import type { GrantRow } from "./view.ts";

export interface GrantRequestInput {
  workspace_id: string;
  fleet_id: string;
  service: string;
  reason: string;
}

function answer(row: GrantRow, message: string) {
  return {
    grant_id: row.id,
    status: row.status as "pending" | "approved" | "revoked",
    fleet_id: row.fleetId,
    service: row.service,
    requested_at: row.requestedAt,
    message,
    gate_id: row.status === "pending" ? row.gateId : null,
  };
}

/**
 * A request that puts a new question to people is recorded, and sends `grant.requested`; one answered as
 * it stands changes nothing.
 */
async function audited(tx: Tx, actor: Actor, row: GrantRow, at: number) {
  await grantWebhookEvent(tx, row, "grant.requested", at);
  await recordAudit(tx, {
    actor,
    at,
    tenantId: row.tenantId,
    workspaceId: row.workspaceId,
    action: "integration_grant.request",
    target: `integration_grant:${row.id}`,
    details: { fleet_id: row.fleetId, service: row.service, gate_id: row.gateId },
  });
}

/**
 * Requests the fleet's use of a service. One grant per (fleet, service), decided under the fleet's row
 * lock so concurrent requests see each other: a new one is created pending with its inbox gate
 * (`created`); a pending one whose gate is still open, or an approved one, is answered as it stands; a
 * pending one whose gate timed out or was closed, and a revoked one, go (back) to pending with a new gate
 * (`created`, since a new question is put to people).
 */
export async function requestIntegrationGrant(
  ctx: ServiceContext,
  actor: Actor,
  tenantId: string,
  input: GrantRequestInput,
) {
  const now = ctx.now();
  let opened: GateWithWebhookId | null = null;
  const result = await ctx.db.transaction(async (tx) => {
    const fleet = await requireFleet(tx, tenantId, input.workspace_id, input.fleet_id, { forUpdate: true });
    if (fleet.status === "stopped" || fleet.status === "killed") {
      throw new Problem("UZ-FLEET-003", {
        detail: `The fleet is ${fleet.status}; it cannot ask for an integration grant.`,
        current_state: fleet.status,
      });
    }
    const [existing] = await tx
      .select()
      .from(integrationGrants)
      .where(and(eq(integrationGrants.fleetId, fleet.id), eq(integrationGrants.service, input.service)));
    if (existing === undefined) {
      const id = newId(now);
      const grant = { id, service: input.service, reason: input.reason, requestedBy: actor.principal };
      opened = await openGrantGate(tx, ctx.vault, fleet, grant, now);
      const gateId = opened.id;
      const [row] = await tx
        .insert(integrationGrants)
        .values({
          ...grant,
          tenantId: fleet.tenantId,
          workspaceId: fleet.workspaceId,
          fleetId: fleet.id,
          status: "pending",
          requestedAt: now,
          gateId,
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      await audited(tx, actor, row!, now);
      return {
        created: true,
        grant: answer(row!, "Requested: a person approves it in the approvals inbox."),
      };
    }
    if (existing.status === "approved") {
      return { created: false, grant: answer(existing, "Already approved.") };
    }
    if (existing.status === "pending" && existing.gateId !== null) {
      const [gate] = await tx
        .select({ status: approvalGates.status, timeoutAt: approvalGates.timeoutAt })
        .from(approvalGates)
        .where(eq(approvalGates.id, existing.gateId));
      if (gate?.status === "pending" && gate.timeoutAt > now) {
        return { created: false, grant: answer(existing, "Already requested: awaiting a decision.") };
      }
    }
    // Revoked, or pending with no open gate (it timed out, or the fleet's gates were closed): ask again.
    const grant = {
      id: existing.id,
      service: existing.service,
      reason: input.reason,
      requestedBy: actor.principal,
    };
    opened = await openGrantGate(tx, ctx.vault, fleet, grant, now);
    const gateId = opened.id;
    const [row] = await tx
      .update(integrationGrants)
      .set({
        status: "pending",
        reason: input.reason,
        requestedBy: actor.principal,
        requestedAt: now,
        decidedBy: null,
        decidedAt: null,
        gateId,
        updatedAt: now,
      })
      .where(eq(integrationGrants.id, existing.id))
      .returning();
    await audited(tx, actor, row!, now);
    return {
      created: true,
      grant: answer(row!, "Requested again: a person approves it in the approvals inbox."),
    };
  });
  if (opened !== null) gatesOpened(ctx, [opened]);
  return result;
}
