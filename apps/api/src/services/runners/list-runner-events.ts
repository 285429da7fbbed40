import { and, type Database, eq, fleets, inArray, runnerEvents, runners, type SQL } from "@fleet/db";
import type { ServiceContext } from "../shared/context.ts";
import { keysetPage } from "../shared/keyset.ts";
import { runnerNotFound } from "./runner-admin.ts";
import type { RunnerEventType } from "./runner-events.ts";

async function requireRunner(db: Database, id: string): Promise<void> {
  const [row] = await db.select({ id: runners.id }).from(runners).where(eq(runners.id, id));
  if (row === undefined) throw runnerNotFound(id);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The fleet an entry's detail names, when it names one as a uuid (anything else matches no fleet). */
function fleetIdOf(detail: Record<string, unknown>): string | undefined {
  const id = detail.fleet_id;
  return typeof id === "string" && UUID.test(id) ? id : undefined;
}

/**
 * The names of the fleets a page of history names, in one read: the console shows "lease of fleet
 * nightly-report" rather than an id. The operator plane sees every tenant's fleets by design.
 */
async function fleetNamesOf(
  ctx: ServiceContext,
  rows: readonly { detail: Record<string, unknown> }[],
): Promise<Map<string, string>> {
  const ids = [...new Set(rows.map((row) => fleetIdOf(row.detail)).filter((id) => id !== undefined))];
  if (ids.length === 0) return new Map();
  const found = await ctx.db
    .select({ id: fleets.id, name: fleets.name })
    .from(fleets)
    .where(inArray(fleets.id, ids));
  return new Map(found.map((fleet) => [fleet.id, fleet.name]));
}

export async function listRunnerEvents(
  ctx: ServiceContext,
  input: { id: string; event_type?: RunnerEventType[]; starting_after?: string; limit: number },
) {
  await requireRunner(ctx.db, input.id);
  const bind = `runner-events:${input.id}:${(input.event_type ?? []).sort().join(",")}`;
  const conditions: SQL[] = [eq(runnerEvents.runnerId, input.id)];
  if (input.event_type) conditions.push(inArray(runnerEvents.eventType, input.event_type));
  const page = await keysetPage({
    bind,
    sort: runnerEvents.createdAt,
    id: runnerEvents.id,
    descending: true,
    limit: input.limit,
    starting_after: input.starting_after,
    read: ({ after, order, rows }) =>
      ctx.db
        .select()
        .from(runnerEvents)
        .where(and(...conditions, after))
        .orderBy(...order)
        .limit(rows),
    keyOf: (row) => ({ value: row.createdAt, id: row.id }),
  });
  const names = await fleetNamesOf(ctx, page.items);
  return {
    items: page.items.map((row) => ({
      id: row.id,
      runner_id: row.runnerId,
      event_type: row.eventType as RunnerEventType & "runner_registered",
      detail: row.detail,
      fleet_name: names.get(fleetIdOf(row.detail) ?? "") ?? null,
      created_at: row.createdAt,
    })),
    next_cursor: page.next_cursor,
  };
}
