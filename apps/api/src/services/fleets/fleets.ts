import { isDeepStrictEqual } from "node:util";
import { type FleetStatus, Problem } from "@fleet/contracts";
import { and, count, eq, fleets, inArray, type SQL, sql } from "@fleet/db";
import { autoKillFleetGates } from "../approvals/sweep.ts";
import { retireFleetSpend } from "../billing/account.ts";
import { pushSchedule } from "../schedules/sync.ts";
import { reconcileTriggerSchedules } from "../schedules/trigger-schedules.ts";
import type { ServiceContext } from "../shared/context.ts";
import { uniqueViolation } from "../shared/errors.ts";
import { gatesResolved } from "../shared/frames.ts";
import { keysetPage } from "../shared/keyset.ts";
import { filteredBinding } from "../shared/tags.ts";
import { fleetNotFound, requireFleet, requireWorkspace } from "../shared/tenancy.ts";
import { requireCredentials } from "./credentials.ts";
import { type DefinitionChange, readDefinitionChange } from "./definition-change.ts";
import { fleetEtag, toFleetItem, toFleetView } from "./fleet-view.ts";

/** Newest first, keyset-paged over (created_at, id). */
export async function listFleets(
  ctx: ServiceContext,
  tenantId: string,
  input: {
    workspace_id: string;
    starting_after?: string;
    limit: number;
    status?: FleetStatus[];
    name?: string;
  },
) {
  await requireWorkspace(ctx.db, tenantId, input.workspace_id);
  const conditions: SQL[] = [eq(fleets.workspaceId, input.workspace_id)];
  if (input.status !== undefined) conditions.push(inArray(fleets.status, input.status));
  if (input.name !== undefined) {
    const pattern = `%${input.name.replace(/[\\%_]/g, "\\$&")}%`;
    conditions.push(sql`${fleets.name} ilike ${pattern}`);
  }
  const scope = and(...conditions) as SQL;
  const filtered = input.status !== undefined || input.name !== undefined;
  const page = await keysetPage({
    // Unfiltered lists keep the binding they always had, so cursors already issued stay good.
    bind: filtered
      ? filteredBinding(`fleets:${input.workspace_id}`, [input.status?.join(",") ?? null, input.name ?? null])
      : `fleets:${input.workspace_id}`,
    sort: fleets.createdAt,
    id: fleets.id,
    descending: true,
    limit: input.limit,
    starting_after: input.starting_after,
    read: ({ after, order, rows }) =>
      ctx.db
        .select()
        .from(fleets)
        .where(and(scope, after))
        .orderBy(...order)
        .limit(rows),
    keyOf: (row) => ({ value: row.createdAt, id: row.id }),
    count: () => ctx.db.select({ n: count() }).from(fleets).where(scope),
  });
  return { items: page.items.map(toFleetItem), total: page.total, next_cursor: page.next_cursor };
}

export async function getFleet(ctx: ServiceContext, tenantId: string, workspaceId: string, fleetId: string) {
  return toFleetView(await requireFleet(ctx.db, tenantId, workspaceId, fleetId));
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
  const row = await ctx.db.transaction(async (tx) => {
    const [deleted] = await tx
      .delete(fleets)
      .where(and(eq(fleets.id, fleetId), eq(fleets.workspaceId, workspaceId), eq(fleets.tenantId, tenantId)))
      .returning({ id: fleets.id, chargedNanos: fleets.chargedNanos });
    if (deleted === undefined) return undefined;
    // Its charges leave with its row: the account keeps them, so the tenant's balance does not move.
    await retireFleetSpend(tx, tenantId, deleted.chargedNanos, ctx.now());
    return { ...deleted, killed: await autoKillFleetGates(tx, deleted.id, "deleted", ctx.now()) };
  });
  if (row !== undefined) gatesResolved(ctx, row.killed);
  if (row !== undefined) return;
  await requireWorkspace(ctx.db, tenantId, workspaceId);
  throw fleetNotFound(fleetId);
}
