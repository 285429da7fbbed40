import type { GateStatus, runnerEventTypes, runnerLiveness, runnerStatuses } from "@fleet/contracts";

/**
 * A console URL from a path and its query, leaving empty values out so plain URLs stay plain: every page
 * that keeps its position (workspace, filters, page) in the URL builds it here.
 */
export function withQuery(path: string, query: Record<string, string | undefined>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value) params.set(key, value);
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

// The addresses of the pages that other pages, the shell and the palette link to. A page that only links
// to itself keeps its address beside it, in its feature.

/** The fleets list's filters, as the URL holds them. */
export interface FleetFilter {
  status?: string | undefined;
  /** Words the name contains (case ignored). */
  name?: string | undefined;
}

/** The fleets list: its workspace, filters and page (the cursor) live in the URL. */
export function fleetsHref(workspaceId?: string, startingAfter?: string, filter: FleetFilter = {}): string {
  return withQuery("/fleets", {
    workspace: workspaceId,
    status: filter.status,
    name: filter.name,
    starting_after: startingAfter,
  });
}

export type FleetTab = "events" | "memories" | "schedules" | "grants";

/** Everything a fleet page's view holds in its URL: the tab, its filters and page, the event opened. */
export interface FleetPosition {
  workspaceId: string;
  fleetId: string;
  tab: FleetTab;
  /** Events: an exact actor or a prefix ending in *. */
  actor?: string | undefined;
  /** Events: one status. */
  status?: string | undefined;
  /** Events: one event type. */
  type?: string | undefined;
  /** Events: epoch ms, RFC 3339 or a duration back from now (15m, 2h, 7d). */
  since?: string | undefined;
  /** Events: the window's end, in the same forms as since. */
  until?: string | undefined;
  /** Events: the page's cursor. */
  after?: string | undefined;
  /** The event open in the inspect dialog. */
  event?: string | undefined;
  /** Memories: an exact category. */
  category?: string | undefined;
  /** Memories: words to search for in key and content. */
  q?: string | undefined;
  /** Memories: the page's cursor. */
  memoriesAfter?: string | undefined;
  /** Grants: the page's cursor. */
  grantsAfter?: string | undefined;
}

/** A fleet page's URL; each tab keeps its filters and page while the other is shown. */
export function fleetHref(position: FleetPosition): string {
  return withQuery(`/fleets/${encodeURIComponent(position.fleetId)}`, {
    workspace: position.workspaceId,
    tab: position.tab === "events" ? undefined : position.tab,
    actor: position.actor,
    status: position.status,
    type: position.type,
    since: position.since,
    until: position.until,
    after: position.after,
    event: position.event,
    category: position.category,
    q: position.q,
    memories_after: position.memoriesAfter,
    grants_after: position.grantsAfter,
  });
}

/** One run's page (a run is one fleet event): its conversation, steps, gates and spend, shareable. */
export function runHref(run: { workspaceId: string; fleetId: string; eventId: string }): string {
  return withQuery(`/fleets/${encodeURIComponent(run.fleetId)}/runs/${encodeURIComponent(run.eventId)}`, {
    workspace: run.workspaceId,
  });
}

/** The library's URL: its workspace and page live in the URL. */
export function libraryHref(workspaceId?: string, startingAfter?: string): string {
  return withQuery("/library", { workspace: workspaceId, starting_after: startingAfter });
}

/** A library entry's page. */
export function entryHref(workspaceId: string, libraryId: string): string {
  return withQuery(`/library/${encodeURIComponent(libraryId)}`, { workspace: workspaceId });
}

/** Everything the inbox holds in its URL: the tab, the filters, the page and the gate open in the pane. */
export interface ApprovalsPosition {
  workspaceId?: string | undefined;
  status: GateStatus;
  /** Only this fleet's gates. */
  fleetId?: string | undefined;
  /** Only gates of this kind (an exact slug). */
  kind?: string | undefined;
  /** The page's cursor. */
  cursor?: string | undefined;
  /** The gate shown in the detail pane. */
  gate?: string | undefined;
}

/** The inbox's URL; empty values are left out so a plain inbox has a plain URL. */
export function approvalsHref(position: ApprovalsPosition): string {
  return withQuery("/approvals", {
    workspace: position.workspaceId,
    status: position.status === "pending" ? undefined : position.status,
    fleet: position.fleetId,
    kind: position.kind,
    cursor: position.cursor,
    gate: position.gate,
  });
}

/** The runners list's filter: each part narrows it further. */
export interface RunnerFilter {
  status?: (typeof runnerStatuses)[number] | undefined;
  liveness?: (typeof runnerLiveness)[number] | undefined;
  degraded?: boolean | undefined;
}

/** Everything the Runners list holds in its URL. */
export interface RunnersPosition extends RunnerFilter {
  /** The API's cursor, when the list is not filtered. */
  startingAfter?: string | undefined;
  /** The last runner of the previous page, when the list is filtered (filtering happens here). */
  after?: string | undefined;
  limit?: number | undefined;
}

export function runnersHref(position: RunnersPosition = {}): string {
  return withQuery("/runners", {
    status: position.status,
    liveness: position.liveness,
    degraded: position.degraded ? "true" : undefined,
    starting_after: position.startingAfter,
    after: position.after,
    limit: position.limit ? String(position.limit) : undefined,
  });
}

/** Everything a runner's page holds in its URL: each table's page, the lease reviewed, the history filter. */
export interface RunnerPosition {
  runnerId: string;
  /** Leases: the page's cursor. */
  leasesAfter?: string | undefined;
  /** The lease open in the review dialog. */
  lease?: string | undefined;
  /** History: the event types shown (all when empty). */
  types?: readonly (typeof runnerEventTypes)[number][] | undefined;
  /** History: the page's cursor. */
  historyAfter?: string | undefined;
}

export function runnerHref(position: RunnerPosition): string {
  return withQuery(`/runners/${encodeURIComponent(position.runnerId)}`, {
    leases_after: position.leasesAfter,
    lease: position.lease,
    types: position.types?.length ? position.types.join(",") : undefined,
    history_after: position.historyAfter,
  });
}

/** The billing page's position in its URL: the charges' page (cursor) and the fleet they are narrowed to. */
export interface BillingPosition {
  after?: string | undefined;
  fleetId?: string | undefined;
  /** Charges per page, when not the API's default. */
  limit?: number | undefined;
}

export function billingHref(position: BillingPosition): string {
  return withQuery("/billing", {
    fleet: position.fleetId,
    limit: position.limit?.toString(),
    starting_after: position.after,
  });
}
