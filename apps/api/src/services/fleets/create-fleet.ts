import { Problem } from "@fleet/contracts";
import { fleets, schedules } from "@fleet/db";
import { newId } from "../../runtime/ids.ts";
import { type LibraryEntryRef, readLibraryEntry } from "../fleet-libraries/entries.ts";
import { pushSchedule } from "../schedules/sync.ts";
import { triggerScheduleRow } from "../schedules/trigger-schedules.ts";
import { type Actor, recordAudit } from "../shared/audit.ts";
import type { ServiceContext } from "../shared/context.ts";
import { uniqueViolation } from "../shared/errors.ts";
import { requireWorkspace } from "../shared/tenancy.ts";
import { requireCredentials } from "./credentials.ts";
import { fleetEtag } from "./fleet-view.ts";

export interface CreateFleetInput {
  workspace_id: string;
  platform_library_id?: string;
  tenant_library_id?: string;
  name?: string;
}

function entryRef(input: CreateFleetInput): LibraryEntryRef {
  if (input.platform_library_id !== undefined && input.tenant_library_id === undefined) {
    return { platformLibraryId: input.platform_library_id };
  }
  if (input.tenant_library_id !== undefined && input.platform_library_id === undefined) {
    return { tenantLibraryId: input.tenant_library_id };
  }
  throw new Problem("UZ-REQ-001", {
    detail: "Send exactly one of platform_library_id and tenant_library_id.",
  });
}

/**
 * Installs a fleet from a library entry: the definition is frozen onto the fleet, and the entry's
 * triggers become its trigger schedules, pushed to the scheduler once stored.
 */
export async function createFleet(
  ctx: ServiceContext,
  actor: Actor,
  tenantId: string,
  input: CreateFleetInput,
) {
  const ref = entryRef(input);
  await requireWorkspace(ctx.db, tenantId, input.workspace_id);
  const entry = await readLibraryEntry(ctx.db, { tenantId, workspaceId: input.workspace_id, ...ref });
  await requireCredentials(ctx.db, input.workspace_id, entry.requirements.credentials);
  const now = ctx.now();
  const id = newId(now);
  const name = input.name ?? entry.name;
  const triggerRows = entry.triggers.map((trigger, index) =>
    triggerScheduleRow({ id, workspaceId: input.workspace_id }, trigger, index, now),
  );
  try {
    await ctx.db.transaction(async (tx) => {
      await tx.insert(fleets).values({
        id,
        tenantId,
        workspaceId: input.workspace_id,
        name,
        status: "active",
        libraryId: entry.id,
        libraryVisibility: entry.visibility,
        definition: {
          instructions: entry.instructions,
          model: entry.model,
          triggers: entry.triggers,
          requirements: entry.requirements,
        },
        createdAt: now,
        updatedAt: now,
      });
      if (triggerRows.length > 0) await tx.insert(schedules).values(triggerRows);
      await recordAudit(tx, {
        actor,
        at: now,
        tenantId,
        workspaceId: input.workspace_id,
        action: "fleet.install",
        target: `fleet:${id}`,
        details: { name, library_id: entry.id, library_visibility: entry.visibility },
      });
    });
  } catch (error) {
    if (uniqueViolation(error, "fleets_workspace_name_key")) {
      throw new Problem("UZ-FLEET-002", {
        detail: `The workspace already holds a fleet named ${name}.`,
        current_state: "name_exists",
      });
    }
    throw error;
  }
  // Stored; registering the trigger schedules now is best-effort, the reconciler converges any that fail.
  const scheduleIds = triggerRows.map((row) => row.id);
  await Promise.all(scheduleIds.map((scheduleId) => pushSchedule(ctx, scheduleId)));
  return {
    fleet_id: id,
    workspace_id: input.workspace_id,
    name,
    status: "active" as const,
    etag: fleetEtag({ id, version: 1 }),
    created_at: now,
    updated_at: now,
    schedule_ids: scheduleIds,
  };
}
