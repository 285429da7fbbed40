import { type fleetEventStatuses, type fleetEventTypes, Problem, resolveSince } from "@fleet/contracts";
import { and, eq, fleetEvents, inArray, type SQL, sql } from "@fleet/db";
import type { ServiceContext } from "../shared/context.ts";
import { keysetPage } from "../shared/keyset.ts";
import { filteredBinding } from "../shared/tags.ts";
import { toEventItem } from "./event-view.ts";

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

export async function pageOfEvents(ctx: ServiceContext, scope: SQL, scopeKey: string, filters: EventFilters) {
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
