import type { AppRouter } from "@fleet/api/router";
import { skipToken } from "@tanstack/react-query";
import type { TRPCClient } from "@trpc/client";

/**
 * How the names of people and API keys are read: every page of their lists, as one query under the list's
 * path. Shared by the browser's names hooks (`names.ts`) and by the console's server, which asks for them
 * with a page's first data so the page's actors arrive named (`lib/prefetch.tsx`).
 */

/** The most a list answers in one page: names are read a page of this size at a time. */
export const PAGE = 100;
/** At most this many pages per list (1,000 names); an id past them shows as a short id. */
const MAX_PAGES = 10;

export interface Page<T> {
  items: T[];
  next_cursor: string | null;
}

/**
 * Every page of a cursor-paged list, up to `MAX_PAGES`, as one page: the same shape as the list's own
 * answer, so code that updates a list's cached pages in place (an optimistic fleet status) handles this
 * one as well.
 */
async function allPages<T>(read: (startingAfter: string | undefined) => Promise<Page<T>>): Promise<Page<T>> {
  const items: T[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const answer = await read(cursor);
    items.push(...answer.items);
    if (answer.next_cursor === null) return { items, next_cursor: null };
    cursor = answer.next_cursor;
  }
  return { items, next_cursor: cursor ?? null };
}

/**
 * A names query lives under its list procedure's path, so every invalidation of that list (after an
 * invite, a rename, an install) refreshes the names too. Its input is marked so no page of the list
 * itself shares its key.
 */
function namesKey(path: readonly unknown[], input: Record<string, string>) {
  return [path[0], { input: { ...input, names: "all" }, type: "query" }] as const;
}

/** A list's cursor parameter for the page after `after`; none for the first page. */
export const after = (cursor: string | undefined) => (cursor ? { starting_after: cursor } : {});

type Client = TRPCClient<AppRouter>;

/**
 * A names query's key and function: every page of a list (`read` one page after a cursor; undefined while
 * it may not be read), under the list's path (`path`, its path key).
 */
export function pagedNames<T>(
  path: readonly unknown[],
  input: Record<string, string>,
  read: ((after: string | undefined) => Promise<Page<T>>) | undefined,
): { queryKey: ReturnType<typeof namesKey>; queryFn: (() => Promise<Page<T>>) | typeof skipToken } {
  return { queryKey: namesKey(path, input), queryFn: read ? () => allPages(read) : skipToken };
}

/** The names query of the tenant's people (`path`: the members list's path key). */
export const memberNames = (path: readonly unknown[], client: Client) =>
  pagedNames(path, {}, (cursor) => client.members.list.query({ limit: PAGE, ...after(cursor) }));

/** The names query of the tenant's API keys (`path`: the keys list's path key). */
export const apiKeyNames = (path: readonly unknown[], client: Client) =>
  pagedNames(path, {}, (cursor) =>
    client.apiKeys.list.query({ limit: PAGE, sort: "-created_at", ...after(cursor) }),
  );

/** The names query of a workspace's fleets (`path`: the fleets list's path key). */
export const fleetNames = (path: readonly unknown[], client: Client, workspaceId: string | undefined) =>
  pagedNames(
    path,
    { workspace_id: workspaceId ?? "" },
    workspaceId
      ? (cursor) => client.fleets.list.query({ workspace_id: workspaceId, limit: PAGE, ...after(cursor) })
      : undefined,
  );
