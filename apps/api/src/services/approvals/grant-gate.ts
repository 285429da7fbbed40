import { GATE_TIMEOUT_MAX_MS, GRANT_GATE_KIND } from "@fleet/contracts";
import { and, approvalGates, eq, type fleets, integrationGrants, type Tx } from "@fleet/db";
import { newId } from "../../runtime/ids.ts";
import type { Vault } from "../../runtime/vault.ts";
import { gateTerms } from "../approval-policies/policy.ts";
import { grantWebhookEvent } from "../integration-grants/grant-webhooks.ts";
import { fleetMasker } from "../secrets/lease-masker.ts";
import type { GateWithWebhookId } from "../shared/frames.ts";
import { personOf } from "./caused-by.ts";
import { decideGate } from "./decide-gate.ts";
import type { GateRow } from "./gate-view.ts";
import { gateWebhookEvent } from "./gate-webhooks.ts";

type GrantRow = typeof integrationGrants.$inferSelect;

/**
 * A grant's gate waits a day (the longest a gate may) unless the workspace's policy has a rule for
 * `integration_grant` gates that says otherwise: asking a person to trust a new service is rarely
 * answered within a runner's hour. A gate that times out leaves the grant pending; asking again opens a
 * new one.
 */
export const GRANT_GATE_TIMEOUT_MS = GATE_TIMEOUT_MAX_MS;

/**
 * Opens the `integration_grant` gate of a grant's request in the caller's transaction, so the request
 * shows in the approvals inbox. No lease carries it (lease and event are null); its action id is new for
 * every request, so a re-request after a revoke or a timeout is a gate of its own. The workspace's
 * approval policy applies as to any gate: its matching rule (approvers, quorum, timeout, escalation) is
 * copied onto the gate.
 */
export async function openGrantGate(
  tx: Tx,
  vault: Vault,
  fleet: typeof fleets.$inferSelect,
  grant: Pick<GrantRow, "id" | "service" | "reason" | "requestedBy">,
  now: number,
): Promise<GateWithWebhookId> {
  // What people read in the inbox never carries the value of a secret the fleet declares, nor one this
  // instance delivered to the fleet's runs (no lease carries a grant's request).
  const mask = await fleetMasker(tx, vault, { fleetId: fleet.id, workspaceId: fleet.workspaceId });
  const id = newId(now);
  const blastRadius = `Whatever the workspace's ${grant.service} credentials reach, until the grant is revoked.`;
  const terms = await gateTerms(
    tx,
    fleet.workspaceId,
    { gate_kind: GRANT_GATE_KIND, blast_radius: blastRadius, timeout_ms: GRANT_GATE_TIMEOUT_MS },
    now,
  );
  const [opened] = await tx
    .insert(approvalGates)
    .values({
      id,
      tenantId: fleet.tenantId,
      workspaceId: fleet.workspaceId,
      fleetId: fleet.id,
      fleetName: fleet.name,
      actionId: newId(now),
      leaseId: null,
      eventId: null,
      toolName: grant.service,
      actionName: "integration_grant",
      gateKind: GRANT_GATE_KIND,
      proposedAction: `Let the fleet ${fleet.name} use ${grant.service}.`,
      evidence: { grant_id: grant.id, service: grant.service, requested_by: grant.requestedBy },
      blastRadius,
      detail: mask(grant.reason),
      status: "pending",
      requestedAt: now,
      updatedAt: now,
      causedBy: await personOf(tx, fleet.tenantId, grant.requestedBy),
      ...terms,
    })
    .returning();
  const event = await gateWebhookEvent(tx, opened!, "gate.opened", now);
  return { id, webhookId: event.id };
}

/**
 * Decides the grant whose gate was just decided, in the deciding transaction: approved approves it,
 * denied revokes it. A gate of another kind, or one whose grant has moved on (revoked meanwhile, or
 * re-requested under a newer gate), changes nothing.
 */
export async function settleGrantForGate(tx: Tx, gate: GateRow, now: number): Promise<void> {
  if (gate.gateKind !== GRANT_GATE_KIND) return;
  if (gate.status !== "approved" && gate.status !== "denied") return;
  const [settled] = await tx
    .update(integrationGrants)
    .set({
      status: gate.status === "approved" ? "approved" : "revoked",
      decidedBy: gate.resolvedBy,
      decidedAt: now,
      updatedAt: now,
    })
    .where(and(eq(integrationGrants.gateId, gate.id), eq(integrationGrants.status, "pending")))
    .returning();
  if (settled !== undefined) await grantWebhookEvent(tx, settled, "grant.decided", now);
}

/**
 * Decides a grant's open gate along with the grant (a webhook decision, a revoke), so the inbox does not
 * offer a question already answered. A gate past its deadline is left for the sweeper; one already
 * decided is left as it stands. Returns the gate (with its `gate.decided` event's id) when this decided it. The caller decides the grant.
 */
export async function decideGrantGate(
  tx: Tx,
  gateId: string | null,
  outcome: "approved" | "denied",
  resolvedBy: string,
  reason: string,
  now: number,
): Promise<GateWithWebhookId | null> {
  if (gateId === null) return null;
  const decided = await decideGate(tx, gateId, { outcome, reason, resolvedBy }, now, {
    beforeDeadline: true,
  });
  return decided === undefined ? null : { id: decided.id, webhookId: decided.webhookId };
}
