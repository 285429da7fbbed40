import { EVIDENCE_MAX_BYTES, Problem } from "@fleet/contracts";
import { and, approvalGates, eq, fleets } from "@fleet/db";
import { newId } from "../../runtime/ids.ts";
import { gateTerms } from "../approval-policies/policy.ts";
import { leaseMasker } from "../secrets/lease-masker.ts";
import { maskJson } from "../secrets/mask.ts";
import type { ServiceContext } from "../shared/context.ts";
import { fencedWrite } from "../shared/fence.ts";
import { gateOpened } from "../shared/frames.ts";
import { checkActionSchema } from "./action-schema.ts";
import { causerOfEvent } from "./caused-by.ts";
import { toRunnerGate } from "./gate-view.ts";
import { gateWebhookEvent } from "./gate-webhooks.ts";
import { approvalsOf } from "./votes.ts";

export interface OpenGateInput {
  lease_id: string;
  fencing_token: number;
  action_id: string;
  tool_name: string;
  action_name: string;
  gate_kind: string;
  proposed_action: string;
  evidence: Record<string, unknown>;
  blast_radius: string;
  detail: string;
  timeout_ms: number;
  action_schema?: Record<string, unknown>;
}

/**
 * Opens a gate for the lease's fleet, fenced like every lease write. The same `action_id` for the same
 * fleet finds the gate already open (`created: false`), so a runner that crashed, or one that reclaimed
 * the work, waits on the gate that exists rather than asking twice.
 */
export async function openGate(ctx: ServiceContext, runnerId: string, input: OpenGateInput) {
  const evidenceBytes = Buffer.byteLength(JSON.stringify(input.evidence));
  if (evidenceBytes > EVIDENCE_MAX_BYTES) {
    throw new Problem("UZ-REQ-006", {
      detail: `evidence is ${evidenceBytes} bytes as JSON; a gate holds at most ${EVIDENCE_MAX_BYTES}.`,
    });
  }
  if (input.action_schema !== undefined) checkActionSchema(input.action_schema);
  const now = ctx.now();
  let opened: { gate: typeof approvalGates.$inferSelect; webhookId: string } | undefined;
  const answer = await fencedWrite(ctx, runnerId, input, async (tx, lease) => {
    // The fence found and locked the fleet row, so it exists; no concurrent open of the action gets in.
    const [fleet] = await tx
      .select({ name: fleets.name, tenantId: fleets.tenantId, status: fleets.status })
      .from(fleets)
      .where(eq(fleets.id, lease.fleetId));
    // Stopping or killing a fleet closes its gates; its runner may still hold the lease, but it may not
    // ask for anything new.
    if (fleet!.status === "stopped" || fleet!.status === "killed") {
      throw new Problem("UZ-FLEET-003", {
        detail: `The fleet is ${fleet!.status}; it cannot open an approval gate.`,
        current_state: fleet!.status,
      });
    }
    // What people read in the inbox never carries the value of a secret the fleet declares, nor one the
    // run was given (the run's masker: delivered values stay masked after their secret changes).
    const mask = await leaseMasker(ctx, tx, lease);
    const blastRadius = mask(input.blast_radius);
    // The policy's matching rule is copied onto the gate: a later policy change never alters it.
    const terms = await gateTerms(
      tx,
      lease.workspaceId,
      { gate_kind: input.gate_kind, blast_radius: blastRadius, timeout_ms: input.timeout_ms },
      now,
    );
    const [inserted] = await tx
      .insert(approvalGates)
      .values({
        id: newId(now),
        tenantId: fleet!.tenantId,
        workspaceId: lease.workspaceId,
        fleetId: lease.fleetId,
        fleetName: fleet!.name,
        actionId: input.action_id,
        leaseId: lease.id,
        eventId: lease.eventId,
        toolName: mask(input.tool_name),
        actionName: mask(input.action_name),
        gateKind: input.gate_kind,
        proposedAction: mask(input.proposed_action),
        evidence: maskJson(input.evidence, mask) as Record<string, unknown>,
        blastRadius,
        detail: mask(input.detail),
        actionSchema: input.action_schema ?? null,
        status: "pending",
        requestedAt: now,
        updatedAt: now,
        causedBy: await causerOfEvent(tx, fleet!.tenantId, lease.eventId),
        ...terms,
      })
      .onConflictDoNothing({ target: [approvalGates.fleetId, approvalGates.actionId] })
      .returning();
    if (inserted !== undefined) {
      const event = await gateWebhookEvent(tx, inserted, "gate.opened", now);
      opened = { gate: inserted, webhookId: event.id };
      return { gate: toRunnerGate(inserted, []), created: true };
    }
    const [existing] = await tx
      .select()
      .from(approvalGates)
      .where(and(eq(approvalGates.fleetId, lease.fleetId), eq(approvalGates.actionId, input.action_id)));
    const approvals = await approvalsOf(tx, [existing!.id]);
    return { gate: toRunnerGate(existing!, approvals.get(existing!.id) ?? []), created: false };
  });
  if (opened !== undefined) gateOpened(ctx, opened.gate, opened.webhookId);
  return answer;
}
