import { withQuery } from "../../lib/urls.ts";

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
