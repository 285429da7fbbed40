import { type GateStatus, gateStatuses } from "@fleet/contracts";
import { withQuery } from "../../lib/urls.ts";

/** Everything the inbox holds in its URL: the tab, the filters, the page and the gate open in the pane. */
export interface ApprovalsPosition {
  workspaceId?: string | undefined;
  status: GateStatus;
  /** Only this fleet's gates. */
  fleetId?: string | undefined;
  /** Only gates of this kind (an exact slug). */
  kind?: string | undefined;
  /** The page's cursor. */
  cursor?: string | undefined;
  /** The gate shown in the detail pane. */
  gate?: string | undefined;
}

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

/** The inbox's URL; empty values are left out so a plain inbox has a plain URL. */
export function approvalsHref(position: ApprovalsPosition): string {
  return withQuery("/approvals", {
    workspace: position.workspaceId,
    status: position.status === "pending" ? undefined : position.status,
    fleet: position.fleetId,
    kind: position.kind,
    cursor: position.cursor,
    gate: position.gate,
  });
}
