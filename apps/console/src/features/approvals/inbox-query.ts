import { type GateStatus, gateStatuses } from "@fleet/contracts";
import type { ApprovalsPosition } from "../../lib/urls.ts";

/** A status from the URL; anything else is the inbox's default, the pending gates. */
export function statusOf(value: string | undefined): GateStatus {
  return gateStatuses.find((status) => status === value) ?? "pending";
}

/** Gates on one page of the inbox. */
export const APPROVALS_PAGE_SIZE = 50;

/**
 * The inbox list's input for a view: the browser's query and the console's server, which asks for it with
 * the page's HTML, build the same key from it.
 */
export function approvalsListInput(workspaceId: string, position: ApprovalsPosition) {
  const { status, fleetId, kind, cursor } = position;
  return {
    workspace_id: workspaceId,
    status,
    limit: APPROVALS_PAGE_SIZE,
    ...(fleetId ? { fleet_id: fleetId } : {}),
    ...(kind ? { gate_kind: kind } : {}),
    ...(cursor ? { cursor } : {}),
  };
}

/** The fleets the inbox's fleet filter offers (one page of the workspace's fleets). */
export const approvalsFleetsInput = (workspaceId: string) => ({ workspace_id: workspaceId, limit: 100 });
