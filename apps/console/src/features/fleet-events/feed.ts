import type { EventFilterValues } from "./event-filters.tsx";

/** Events on the Events page's one page. */
export const FEED_SIZE = 50;

/**
 * The Events page's list input for a workspace and filters (as the URL gives them): the browser's query and
 * the console's server, which asks for it with the page's HTML, build the same key from it.
 */
export function eventFeedInput(workspaceId: string, filter: EventFilterValues) {
  const { actor, status, type, since, until } = filter;
  return {
    workspace_id: workspaceId,
    limit: FEED_SIZE,
    ...(actor ? { actor } : {}),
    ...(status ? { status } : {}),
    ...(type ? { event_type: type } : {}),
    ...(since ? { since } : {}),
    ...(until ? { until } : {}),
  };
}
