import { isDeepStrictEqual } from "node:util";
import { type FleetStatus, Problem } from "@fleet/contracts";
import { eq, fleets } from "@fleet/db";
import { autoKillFleetGates } from "../approvals/sweep.ts";
import { pushSchedule } from "../schedules/sync.ts";
import { reconcileTriggerSchedules } from "../schedules/trigger-schedules.ts";
import { type Actor, recordAudit } from "../shared/audit.ts";
import type { ServiceContext } from "../shared/context.ts";
import { uniqueViolation } from "../shared/errors.ts";
import { gatesResolved } from "../shared/frames.ts";
import { requireFleet } from "../shared/tenancy.ts";
import { requireCredentials } from "./credentials.ts";
import { type DefinitionChange, readDefinitionChange } from "./definition-change.ts";
import { fleetEtag, toFleetView } from "./fleet-view.ts";

/** Moves a person may make; `killed` is terminal. */
const allowedMoves: Record<FleetStatus, readonly FleetStatus[]> = {
  installing: ["killed"],
  active: ["paused", "stopped", "killed"],
  paused: ["active", "stopped", "killed"],
  stopped: ["active", "killed"],
  killed: [],
};

export async function updateFleet(
  ctx: ServiceContext,
  actor: Actor,
  tenantId: string,
  input: {
    workspace_id: string;
    fleet_id: string;
    if_match?: string;
    status?: Exclude<FleetStatus, "installing">;
    name?: string;
  } & DefinitionChange,
) {
  // Read before the row is locked: a malformed or oversized definition is refused without waiting on it.
  const replaced = readDefinitionChange(input);
  try {
    const { fleet, pushes, killed } = await ctx.db.transaction(async (tx) => {
      const row = await requireFleet(tx, tenantId, input.workspace_id, input.fleet_id, { forUpdate: true });
      const etag = fleetEtag(row);
      if (input.if_match !== undefined && input.if_match !== etag) {
        throw new Problem("UZ-FLEET-004", {
          detail: "The fleet changed since that etag was read; refetch and retry.",
          etag,
        });
      }
      const status = input.status ?? row.status;
      if (status !== row.status && !allowedMoves[row.status].includes(status)) {
        throw new Problem("UZ-FLEET-003", {
          detail: `A ${row.status} fleet cannot become ${status}.`,
          current_state: row.status,
        });
      }
      const name = input.name ?? row.name;
      const definition = replaced === null ? row.definition : { ...row.definition, ...replaced };
      // Key order is not compared: jsonb stores an object's keys in its own order.
      const redefined = !isDeepStrictEqual(definition, row.definition);
      if (status === row.status && name === row.name && !redefined)
        return { fleet: row, pushes: [], killed: [] };
      let pushes: string[] = [];
      if (redefined) {
        if (row.status === "killed") {
          throw new Problem("UZ-FLEET-003", {
            detail: "A killed fleet's definition cannot change.",
            current_state: row.status,
          });
        }
        if (replaced?.requirements !== undefined)
          await requireCredentials(tx, row.workspaceId, replaced.requirements.credentials);
        const fleet = { id: row.id, workspaceId: row.workspaceId };
        pushes = await reconcileTriggerSchedules(
          tx,
          fleet,
          row.definition.triggers,
          definition.triggers,
          ctx.now(),
        );
      }
      const now = ctx.now();
      const [updated] = await tx
        .update(fleets)
        .set({ status, name, definition, version: row.version + 1, updatedAt: now })
        .where(eq(fleets.id, row.id))
        .returning();
      await recordAudit(tx, {
        actor,
        at: now,
        tenantId,
        workspaceId: row.workspaceId,
        // Killing is terminal and closes every gate: it reads as its own act.
        action: status !== row.status && status === "killed" ? "fleet.kill" : "fleet.update",
        target: `fleet:${row.id}`,
        details: {
          ...(status === row.status ? {} : { status: { from: row.status, to: status } }),
          ...(name === row.name ? {} : { name: { from: row.name, to: name } }),
          ...(redefined ? { definition: Object.keys(replaced ?? {}).sort() } : {}),
        },
      });
      // A stopped or killed fleet acts on nothing it asked about: its open gates close with it.
      const killed =
        status !== row.status && (status === "stopped" || status === "killed")
          ? await autoKillFleetGates(tx, row.id, status, now)
          : [];
      return { fleet: updated!, pushes, killed };
    });
    gatesResolved(ctx, killed);
    // Stored; registering the changed trigger schedules is best-effort, the reconciler converges the rest.
    await Promise.all(pushes.map((scheduleId) => pushSchedule(ctx, scheduleId)));
    return toFleetView(fleet);
  } catch (error) {
    if (uniqueViolation(error, "fleets_workspace_name_key")) {
      throw new Problem("UZ-FLEET-002", {
        detail: `The workspace already holds a fleet named ${input.name}.`,
        current_state: "name_exists",
      });
    }
    throw error;
  }
}
