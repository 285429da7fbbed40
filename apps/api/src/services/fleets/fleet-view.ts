import type { fleets } from "@fleet/db";
import { strongTag } from "../shared/tags.ts";

type FleetRow = typeof fleets.$inferSelect;

/** A strong tag of one version of one fleet. */
export function fleetEtag(row: Pick<FleetRow, "id" | "version">): string {
  return strongTag(row.id, row.version);
}

export function toFleetItem(row: FleetRow) {
  return {
    id: row.id,
    name: row.name,
    status: row.status,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
    events_processed: row.eventsProcessed,
    budget_used_nanos: row.budgetUsedNanos,
  };
}

export function toFleetView(row: FleetRow) {
  const platform = row.libraryVisibility === "platform";
  return {
    ...toFleetItem(row),
    fleet_id: row.id,
    workspace_id: row.workspaceId,
    etag: fleetEtag(row),
    platform_library_id: platform ? row.libraryId : null,
    tenant_library_id: platform ? null : row.libraryId,
    instructions: row.definition.instructions,
    model: row.definition.model ?? null,
    triggers: row.definition.triggers,
    requirements: row.definition.requirements,
  };
}
