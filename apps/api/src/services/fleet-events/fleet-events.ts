import { type fleetEventStatuses, type fleetEventTypes, Problem, resolveSince } from "@fleet/contracts";
import { and, eq, fleetEvents, fleets, inArray, type SQL, sql } from "@fleet/db";
import type { ServiceContext } from "../shared/context.ts";
import { keysetPage } from "../shared/keyset.ts";
import { filteredBinding, present } from "../shared/tags.ts";
import { requireFleet, requireWorkspace } from "../shared/tenancy.ts";

type EventRow = typeof fleetEvents.$inferSelect;

function toEventItem(row: Omit<EventRow, "requestJson" | "responseText" | "failureDetail" | "checkpointId">) {
  return {
    event_id: row.id,
    fleet_id: row.fleetId,
    workspace_id: row.workspaceId,
    actor: row.actor,
    event_type: row.eventType as "chat",
    status: row.status as "received",
    created_at: row.createdAt,
    updated_at: row.updatedAt,
    ...present("failure_label", row.failureLabel),
    ...present("resumes_event_id", row.resumesEventId),
    ...present("retry_of", row.retryOf),
    ...present("tokens", row.tokens),
    ...present("wall_ms", row.wallMs),
    ...present("cost_nanos", row.costNanos),
  };
}

/** The list columns: never the bodies. */
const itemColumns = {
  id: fleetEvents.id,
  fleetId: fleetEvents.fleetId,
  workspaceId: fleetEvents.workspaceId,
  actor: fleetEvents.actor,
  eventType: fleetEvents.eventType,
  status: fleetEvents.status,
  createdAt: fleetEvents.createdAt,
  updatedAt: fleetEvents.updatedAt,
  failureLabel: fleetEvents.failureLabel,
  resumesEventId: fleetEvents.resumesEventId,
  retryOf: fleetEvents.retryOf,
  tokens: fleetEvents.tokens,
  wallMs: fleetEvents.wallMs,
  costNanos: fleetEvents.costNanos,
};

export interface EventFilters {
  starting_after?: string;
  limit: number;
  actor?: string;
  since?: string;
  until?: string;
  status?: (typeof fleetEventStatuses)[number][];
  event_type?: (typeof fleetEventTypes)[number][];
}

type BoundFilters = Omit<EventFilters, "starting_after" | "limit">;

/** What an events list's cursors are bound to: the list (`fleet:<id>` or `workspace:<id>`) and its filters. */
export function eventsBinding(scopeKey: string, filters: BoundFilters): string {
  // The filters as given (a duration stays "2h", not its instant), as before `until` and the sets existed,
  // so cursors issued under actor and since alone keep their binding.
  const extra = [filters.until, filters.status?.join(","), filters.event_type?.join(",")];
  return filteredBinding("events", [
    scopeKey,
    filters.actor ?? null,
    filters.since ?? null,
    ...(extra.some((value) => value !== undefined) ? extra.map((value) => value ?? null) : []),
  ]);
}

async function pageOfEvents(ctx: ServiceContext, scope: SQL, scopeKey: string, filters: EventFilters) {
  const conditions: SQL[] = [scope];
  if (filters.actor !== undefined) {
    conditions.push(
      filters.actor.endsWith("*")
        ? sql`${fleetEvents.actor} like ${`${filters.actor.slice(0, -1).replace(/[\\%_]/g, "\\$&")}%`}`
        : eq(fleetEvents.actor, filters.actor),
    );
  }
  const now = ctx.now();
  const since = filters.since === undefined ? undefined : resolveSince(filters.since, now);
  const until = filters.until === undefined ? undefined : resolveSince(filters.until, now);
  if (since != null && until != null && since > until) {
    throw new Problem("UZ-REQ-001", { detail: "since must not be after until." });
  }
  if (since != null) conditions.push(sql`${fleetEvents.createdAt} >= ${since}`);
  if (until != null) conditions.push(sql`${fleetEvents.createdAt} <= ${until}`);
  if (filters.status !== undefined) conditions.push(inArray(fleetEvents.status, filters.status));
  if (filters.event_type !== undefined) conditions.push(inArray(fleetEvents.eventType, filters.event_type));
  const page = await keysetPage({
    bind: eventsBinding(scopeKey, filters),
    sort: fleetEvents.createdAt,
    id: fleetEvents.id,
    descending: true,
    limit: filters.limit,
    starting_after: filters.starting_after,
    read: ({ after, order, rows }) =>
      ctx.db
        .select(itemColumns)
        .from(fleetEvents)
        .where(and(...conditions, after))
        .orderBy(...order)
        .limit(rows),
    keyOf: (row) => ({ value: row.createdAt, id: row.id }),
  });
  return { items: page.items.map(toEventItem), next_cursor: page.next_cursor };
}

export async function listFleetEvents(
  ctx: ServiceContext,
  tenantId: string,
  input: EventFilters & { workspace_id: string; fleet_id: string },
) {
  await requireFleet(ctx.db, tenantId, input.workspace_id, input.fleet_id);
  return pageOfEvents(ctx, eq(fleetEvents.fleetId, input.fleet_id), `fleet:${input.fleet_id}`, input);
}

export async function listWorkspaceEvents(
  ctx: ServiceContext,
  tenantId: string,
  input: EventFilters & { workspace_id: string },
) {
  await requireWorkspace(ctx.db, tenantId, input.workspace_id);
  return pageOfEvents(
    ctx,
    eq(fleetEvents.workspaceId, input.workspace_id),
    `workspace:${input.workspace_id}`,
    input,
  );
}

/**
 * One event with its bodies. The tenant, workspace and fleet are conditions of the one query, so an
 * event elsewhere is exactly as absent as one that never existed.
 */
export async function getFleetEvent(
  ctx: ServiceContext,
  tenantId: string,
  input: { workspace_id: string; fleet_id: string; event_id: string },
) {
  const [row] = await ctx.db
    .select({ event: fleetEvents })
    .from(fleetEvents)
    .innerJoin(fleets, eq(fleets.id, fleetEvents.fleetId))
    .where(
      and(
        eq(fleetEvents.id, input.event_id),
        eq(fleetEvents.fleetId, input.fleet_id),
        eq(fleetEvents.workspaceId, input.workspace_id),
        eq(fleets.tenantId, tenantId),
      ),
    );
  if (row === undefined) {
    throw new Problem("UZ-EVENT-001", { detail: `No event ${input.event_id} for this fleet.` });
  }
  const event = row.event;
  return {
    ...toEventItem(event),
    request_json: event.requestJson,
    ...present("response_text", event.responseText),
    ...present("failure_detail", event.failureDetail),
    ...present("checkpoint_id", event.checkpointId),
  };
}
