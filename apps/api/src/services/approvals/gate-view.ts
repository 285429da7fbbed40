import {
  type ApprovalGate,
  type ErrorCode,
  type GateApproval,
  type GateStatus,
  gateFailureLabels,
  Problem,
} from "@fleet/contracts";
import { approvalGates, type Database, fleets, sql, type Tx } from "@fleet/db";
import type { TenantPrincipal } from "../../auth/principal.ts";
import { GATE_CHANNEL } from "../../runtime/gate-signal.ts";
import type { GateRow } from "../shared/context.ts";

export type { GateRow };

type Terminal = Exclude<GateStatus, "pending">;

/** The gate as the inbox shows it; `fleetName` is the fleet's current name while it exists. */
export function toGateItem(
  row: GateRow,
  approvals: GateApproval[],
  fleetName: string | null = null,
): ApprovalGate {
  return {
    gate_id: row.id,
    fleet_id: row.fleetId,
    workspace_id: row.workspaceId,
    action_id: row.actionId,
    event_id: row.eventId,
    requested_at: row.requestedAt,
    timeout_at: row.timeoutAt,
    updated_at: row.updatedAt,
    fleet_name: fleetName ?? row.fleetName,
    tool_name: row.toolName,
    action_name: row.actionName,
    gate_kind: row.gateKind,
    proposed_action: row.proposedAction,
    evidence: row.evidence,
    blast_radius: row.blastRadius,
    detail: row.detail,
    status: row.status as GateStatus,
    resolved_by: row.resolvedBy,
    resolved_at: row.resolvedAt,
    reason: row.reason,
    amended_action: row.amendedAction,
    rule: row.ruleName,
    high_blast: row.highBlast,
    required_approvals: row.requiredApprovals,
    approvals,
    escalated_at: row.escalatedAt,
    extended_at: row.extendedAt,
    extended_by: row.extendedBy,
    extension_reason: row.extensionReason,
  };
}

/** The gate as its runner reads it: what to run when approved, what to report when not. */
export function toRunnerGate(row: GateRow, approvals: GateApproval[]) {
  const status = row.status as GateStatus;
  return {
    ...toGateItem(row, approvals),
    outcome: status === "pending" ? null : status,
    approved_action: status === "approved" ? (row.amendedAction ?? row.proposedAction) : null,
    failure_label: status === "pending" || status === "approved" ? null : gateFailureLabels[status],
    action_ran_at: row.actionRanAt,
  };
}

/** Who answered, as `resolved_by` names them. */
export function resolverOf(principal: TenantPrincipal): string {
  return principal.apiKeyId === null ? `user:${principal.userId}` : `api_key:${principal.apiKeyId}`;
}

const refusalOf: Record<Terminal, ErrorCode> = {
  approved: "UZ-APPROVAL-006",
  denied: "UZ-APPROVAL-006",
  timed_out: "UZ-APPROVAL-003",
  auto_killed: "UZ-APPROVAL-005",
};

/** The refusal of an answer to a gate that already has one, carrying the standing answer. */
export function standingAnswer(row: GateRow): Problem {
  const outcome = row.status as Terminal;
  const by = outcome === "timed_out" ? "it timed out" : `by ${row.resolvedBy}`;
  return new Problem(refusalOf[outcome], {
    detail: `The gate was already ${outcome.replace("_", " ")} (${by}); the first answer stands.`,
    gate_id: row.id,
    action_id: row.actionId,
    outcome,
    resolved_at: row.resolvedAt,
    resolved_by: row.resolvedBy,
    current_state: outcome,
  });
}

/** Tells every instance's waiters that these gates changed; delivered at the transaction's commit. */
export async function notifyGates(tx: Database | Tx, gateIds: readonly string[]): Promise<void> {
  for (const id of gateIds) await tx.execute(sql`select pg_notify(${GATE_CHANNEL}, ${id})`);
}

/** A gate's row with its fleet's name, as the inbox and a gate's read select it. */
export const withFleetName = { gate: approvalGates, fleetName: fleets.name };

/** A gate id that names no gate of the workspace's (another tenant's reads the same). */
export function gateNotFound(gateId: string): Problem {
  return new Problem("UZ-APPROVAL-001", { detail: `No approval gate ${gateId} in this workspace.` });
}

/**
 * Whether the gate's rule takes people to decide it: it names its approvers, or takes more than one
 * approval. Such a gate is answered in the inbox, by the people its rule counts; a path that carries no
 * person (the grant-approval webhook) cannot decide it.
 */
export function ruleNeedsPeople(gate: Pick<GateRow, "approvers" | "requiredApprovals">): boolean {
  return gate.approvers !== null || gate.requiredApprovals > 1;
}
