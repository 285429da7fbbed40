import { type Operation, Problem } from "@fleet/contracts";
import type { Principal } from "./principal.ts";

/** The scopes a fleet key acts with, as far as its creator still holds them. */
export const FLEET_KEY_SCOPES: readonly string[] = ["fleet:read", "fleet:write"];

/**
 * The operations a fleet key reaches: its fleet's messages, events and live tail (and its stored
 * frames), and grant requests.
 * Every other operation answers it as a credential without the operation's scope (403 UZ-AUTH-022).
 */
export const FLEET_KEY_OPERATIONS: ReadonlySet<string> = new Set([
  "fleets.message",
  "fleetEvents.list",
  "fleetEvents.get",
  "fleetEvents.listFrames",
  "fleetEvents.stream",
  "integrationGrants.request",
]);

/** Refuses a fleet key an operation outside its reach, exactly as a credential lacking the scope. */
export function assertFleetKeyReach(op: Operation, principal: Principal): void {
  if (principal.class !== "api_key" || !principal.fleet || FLEET_KEY_OPERATIONS.has(op.id)) return;
  throw new Problem("UZ-AUTH-022", {
    detail:
      op.scope === null
        ? "This request is not open to a fleet key."
        : `This request needs the scope ${op.scope}.`,
  });
}

/**
 * Holds a fleet key to its own fleet: another workspace answers as an absent workspace, another fleet as
 * an absent fleet, the answers any credential gets for what it cannot see. Runs on the parsed input,
 * before the resolver, on both transports.
 */
export function assertFleetBinding(principal: Principal | null, input: unknown): void {
  if (principal === null || principal.class !== "api_key" || !principal.fleet) return;
  const { workspace_id, fleet_id } = (input ?? {}) as { workspace_id?: unknown; fleet_id?: unknown };
  if (workspace_id !== undefined && workspace_id !== principal.fleet.workspaceId) {
    throw new Problem("UZ-WORKSPACE-002", { detail: `No workspace ${String(workspace_id)}.` });
  }
  if (fleet_id !== undefined && fleet_id !== principal.fleet.fleetId) {
    throw new Problem("UZ-FLEET-001", { detail: `No fleet ${String(fleet_id)} in this workspace.` });
  }
}
