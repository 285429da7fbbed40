import { type FleetStatus, Problem } from "@fleet/contracts";
import { and, count, type Database, desc, eq, fleets, sql } from "@fleet/db";
import { autoKillFleetGates } from "../approvals/sweep.ts";
import { type ServiceContext, uniqueViolation } from "../context.ts";
import { decodeCursor, encodeCursor } from "../cursor.ts";
import { requireWorkspace } from "../workspaces/access.ts";
import { fleetNotFound, requireFleet } from "./access.ts";
import { fleetEtag, toFleetItem, toFleetView } from "./fleet-view.ts";

/** Newest first, keyset-paged over (created_at, id). */
export async function listFleets(
  db: Database,
  tenantId: string,
  input: { workspace_id: string; starting_after?: string; limit: number },
) {
  await requireWorkspace(db, tenantId, input.workspace_id);
  const bind = `fleets:${input.workspace_id}`;
  const scope = eq(fleets.workspaceId, input.workspace_id);
  const after = input.starting_after === undefined ? null : decodeCursor(input.starting_after, bind);
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(fleets)
      .where(
        after === null
          ? scope
          : and(scope, sql`(${fleets.createdAt}, ${fleets.id}) < (${after.value}, ${after.id}::uuid)`),
      )
      .orderBy(desc(fleets.createdAt), desc(fleets.id))
      .limit(input.limit + 1),
    db.select({ n: count() }).from(fleets).where(scope),
  ]);
  const items = rows.slice(0, input.limit);
  const last = items.at(-1);
  return {
    items: items.map(toFleetItem),
    total: total?.n ?? 0,
    next_cursor:
      rows.length > input.limit && last ? encodeCursor({ bind, value: last.createdAt, id: last.id }) : null,
  };
}

export async function getFleet(db: Database, tenantId: string, workspaceId: string, fleetId: string) {
  return toFleetView(await requireFleet(db, tenantId, workspaceId, fleetId));
}

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
  tenantId: string,
  input: {
    workspace_id: string;
    fleet_id: string;
    if_match?: string;
    status?: Exclude<FleetStatus, "installing">;
    name?: string;
  },
) {
  try {
    return await ctx.db.transaction(async (tx) => {
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
      if (status === row.status && name === row.name) return toFleetView(row);
      const now = ctx.now();
      const [updated] = await tx
        .update(fleets)
        .set({ status, name, version: row.version + 1, updatedAt: now })
        .where(eq(fleets.id, row.id))
        .returning();
      // A stopped or killed fleet acts on nothing it asked about: its open gates close with it.
      if (status !== row.status && (status === "stopped" || status === "killed")) {
        await autoKillFleetGates(tx, row.id, status, now);
      }
      return toFleetView(updated!);
    });
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

/**
 * Deletes the fleet; its events, memories and schedules go with it (foreign keys cascade). Its open
 * approval gates stay, closed as `auto_killed`, so a runner waiting on one reads the closure.
 */
export async function deleteFleet(
  ctx: ServiceContext,
  tenantId: string,
  workspaceId: string,
  fleetId: string,
) {
  const db = ctx.db;
  const row = await db.transaction(async (tx) => {
    const [deleted] = await tx
      .delete(fleets)
      .where(and(eq(fleets.id, fleetId), eq(fleets.workspaceId, workspaceId), eq(fleets.tenantId, tenantId)))
      .returning({ id: fleets.id });
    if (deleted !== undefined) await autoKillFleetGates(tx, deleted.id, "deleted", ctx.now());
    return deleted;
  });
  if (row !== undefined) return;
  await requireWorkspace(db, tenantId, workspaceId);
  throw fleetNotFound(fleetId);
}
