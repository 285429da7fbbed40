import { hasScope, Problem } from "@fleet/contracts";
import type { IdPlace } from "@fleet/contracts/ids/resolve-id";
import { and, approvalGates, eq, fleetEvents, fleets, workspaces } from "@fleet/db";
import type { ServiceContext } from "../shared/context.ts";

export function idNotFound(id: string): Problem {
  return new Problem("UZ-ID-001", { detail: `No fleet, event or approval gate ${id} you may read.` });
}

/**
 * Where a fleet, event or gate id belongs, within the caller's tenant and the kinds the caller may read
 * (fleets and events with fleet:read, gates with approval:read). Ids are UUIDv7, unique across tables, so
 * at most one kind matches; each lookup is by primary key. Whatever is not found, another tenant's id and
 * a kind the caller may not read alike, is the same 404: the answer never says that an id exists.
 */
export async function resolveId(
  ctx: ServiceContext,
  tenantId: string,
  scopes: readonly string[],
  id: string,
): Promise<IdPlace> {
  if (hasScope(scopes, "fleet:read")) {
    const [fleet] = await ctx.db
      .select({ workspaceId: fleets.workspaceId })
      .from(fleets)
      .where(and(eq(fleets.id, id), eq(fleets.tenantId, tenantId)));
    if (fleet) return { kind: "fleet", id, workspace_id: fleet.workspaceId, fleet_id: id, event_id: null };
    // Events carry no tenant of their own: their workspace's is the one that counts.
    const [event] = await ctx.db
      .select({ workspaceId: fleetEvents.workspaceId, fleetId: fleetEvents.fleetId })
      .from(fleetEvents)
      .innerJoin(workspaces, eq(workspaces.id, fleetEvents.workspaceId))
      .where(and(eq(fleetEvents.id, id), eq(workspaces.tenantId, tenantId)));
    if (event)
      return { kind: "event", id, workspace_id: event.workspaceId, fleet_id: event.fleetId, event_id: id };
  }
  if (hasScope(scopes, "approval:read")) {
    const [gate] = await ctx.db
      .select({
        workspaceId: approvalGates.workspaceId,
        fleetId: approvalGates.fleetId,
        eventId: approvalGates.eventId,
      })
      .from(approvalGates)
      .where(and(eq(approvalGates.id, id), eq(approvalGates.tenantId, tenantId)));
    if (gate)
      return {
        kind: "gate",
        id,
        workspace_id: gate.workspaceId,
        fleet_id: gate.fleetId,
        event_id: gate.eventId,
      };
  }
  throw idNotFound(id);
}
