import { type GrantStatus, type IntegrationGrant, Problem } from "@fleet/contracts";
import type { integrationGrants } from "@fleet/db";

export type GrantRow = typeof integrationGrants.$inferSelect;

export function toGrantView(row: GrantRow): IntegrationGrant {
  return {
    grant_id: row.id,
    fleet_id: row.fleetId,
    workspace_id: row.workspaceId,
    service: row.service,
    status: row.status as GrantStatus,
    reason: row.reason,
    requested_at: row.requestedAt,
    requested_by: row.requestedBy,
    decided_by: row.decidedBy,
    decided_at: row.decidedAt,
    gate_id: row.gateId,
    created_at: row.createdAt,
  };
}

export function grantNotFound(grantId: string): Problem {
  return new Problem("UZ-GRANT-001", { detail: `No integration grant ${grantId} for this fleet.` });
}

/** The refusal of a change the grant's state does not take; `current_state` names the state. */
export function grantNotChangeable(row: GrantRow, wanted: string): Problem {
  return new Problem("UZ-GRANT-002", {
    detail: `The grant is ${row.status}; it cannot be ${wanted}.`,
    current_state: row.status,
  });
}
