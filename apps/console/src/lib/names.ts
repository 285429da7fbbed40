"use client";

import { type QueryFunction, skipToken, useQuery } from "@tanstack/react-query";
import { describeCron } from "./cron-text.ts";
import { after, apiKeyNames, fleetNames, memberNames, PAGE, type Page, pagedNames } from "./names-pages.ts";
import { type RouterOutputs, useTRPC, useTRPCClient } from "./trpc.ts";

/** Names change rarely: a list read for names is fresh for a minute (a rename's invalidation refreshes it). */
const NAMES_STALE_MS = 60_000;

const options = { staleTime: NAMES_STALE_MS } as const;

/** Names resolved so far: undefined while the list loads or when it cannot be read (no scope, no operator). */
export type Names = ReadonlyMap<string, string> | undefined;

/** A list's items as id → name; made once per answer (a query's `select` is kept while its data is). */
function byId<T>(id: (item: T) => string, name: (item: T) => string) {
  return (page: { items: T[] }): ReadonlyMap<string, string> =>
    new Map(page.items.map((item) => [id(item), name(item)]));
}

type Member = RouterOutputs["members"]["list"]["items"][number];
const memberMap = byId<Member>(
  (member) => member.user_id,
  (member) => member.display_name ?? member.email,
);
const keyMap = byId<{ id: string; key_name: string }>(
  (key) => key.id,
  (key) => key.key_name,
);
const fleetMap = byId<{ id: string; name: string }>(
  (fleet) => fleet.id,
  (fleet) => fleet.name,
);
const scheduleMap = byId<{ schedule_id: string; cron: string }>(
  (schedule) => schedule.schedule_id,
  (schedule) => describeCron(schedule.cron) ?? schedule.cron,
);
const runnerMap = byId<{ runner_id: string; host_id: string }>(
  (runner) => runner.runner_id,
  (runner) => runner.host_id,
);

const workspaceMap = byId<{ id: string; name: string }>(
  (workspace) => workspace.id,
  (workspace) => workspace.name,
);
const tenantMap = (me: { tenant_id: string; tenant_name: string }): ReadonlyMap<string, string> =>
  new Map([[me.tenant_id, me.tenant_name]]);

/** How one kind's names are read: a query's options, whose answer `select` turns into id → name. */
interface NamesQuery {
  queryKey: readonly unknown[];
  queryFn: QueryFunction | typeof skipToken;
  /** The lists' minute; a query that is also a page's own keeps the console's default. */
  staleTime?: number;
  /** One of the maps above: the same function on every render, so TanStack keeps its result. */
  select: (data: never) => ReadonlyMap<string, string>;
}

/** A list's names query with the lists' freshness and `map` as its `select`. */
function listNames<T>(
  path: readonly unknown[],
  input: Record<string, string>,
  read: ((after: string | undefined) => Promise<Page<T>>) | undefined,
  map: (page: Page<T>) => ReadonlyMap<string, string>,
): NamesQuery {
  return { ...pagedNames(path, input, read), ...options, select: map };
}

type Trpc = ReturnType<typeof useTRPC>;
type Client = ReturnType<typeof useTRPCClient>;

/** What the names of each kind are read with; a kind not listed has none to read. */
const readers = {
  /** People of the tenant by user id: display name, else email. Needs workspace:admin. */
  user: (trpc: Trpc, client: Client): NamesQuery => ({
    ...memberNames(trpc.members.list.pathKey(), client),
    ...options,
    select: memberMap,
  }),
  /** The tenant's API keys by id. */
  api_key: (trpc: Trpc, client: Client): NamesQuery => ({
    ...apiKeyNames(trpc.apiKeys.list.pathKey(), client),
    ...options,
    select: keyMap,
  }),
  /** A workspace's fleets by id. */
  fleet: (trpc: Trpc, client: Client, workspaceId?: string): NamesQuery => ({
    ...fleetNames(trpc.fleets.list.pathKey(), client, workspaceId),
    ...options,
    select: fleetMap,
  }),
  /**
   * A fleet's schedules by id. A schedule has no name of its own: it is called by when it fires, in words
   * ("every day at 09:00"), or by its cron expression when that has no words. The list's own query.
   */
  cron: (trpc: Trpc, client: Client, workspaceId?: string, fleetId?: string): NamesQuery => {
    const input = workspaceId && fleetId ? { workspace_id: workspaceId, fleet_id: fleetId } : undefined;
    return {
      queryKey: trpc.schedules.list.queryKey(input),
      queryFn: input ? () => client.schedules.list.query(input) : skipToken,
      ...options,
      select: scheduleMap,
    };
  },
  /** Runners by id, called by their host. Operator-plane: without an operator token, none. */
  runner: (trpc: Trpc, client: Client) =>
    listNames(
      trpc.runners.list.pathKey(),
      {},
      (cursor) => client.runners.list.query({ limit: PAGE, ...after(cursor) }),
      runnerMap,
    ),
  /** The tenant's workspaces by id, from the list every member may read. */
  workspace: (trpc: Trpc, client: Client) =>
    listNames(
      trpc.workspaces.listVisible.pathKey(),
      {},
      (cursor) => client.workspaces.listVisible.query({ limit: PAGE, ...after(cursor) }),
      workspaceMap,
    ),
  /** The signed-in credential's tenant by id (a person sees only their own tenant). */
  tenant: (trpc: Trpc, client: Client): NamesQuery => ({
    // getMe's own query (the shell's), as fresh as the shell keeps it.
    queryKey: trpc.users.getMe.queryKey({}),
    queryFn: () => client.users.getMe.query({}),
    select: tenantMap,
  }),
} satisfies Record<
  string,
  (trpc: Trpc, client: Client, workspaceId?: string, fleetId?: string) => NamesQuery
>;

/** The kinds whose names can be read. */
type NamedKind = keyof typeof readers;

const NOTHING: NamesQuery = {
  queryKey: ["names", "none"],
  queryFn: skipToken,
  ...options,
  select: () => new Map(),
};

/**
 * The names of one kind of record (undefined while they load, when they cannot be read, or for a kind
 * without names). One query observer whatever the kind: a table of 50 rows, each naming its actor, holds
 * 50 observers rather than one for every kind in each row.
 */
export function useNames(kind: string | undefined, workspaceId?: string, fleetId?: string): Names {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const reader = kind !== undefined && Object.hasOwn(readers, kind) ? readers[kind as NamedKind] : undefined;
  const query = useQuery(
    (reader?.(trpc, client, workspaceId, fleetId) ?? NOTHING) as NamesQuery & {
      select: (data: unknown) => ReadonlyMap<string, string>;
    },
  );
  return reader === undefined ? undefined : query.data;
}

/** People of the tenant by user id: display name, else email. Needs workspace:admin; without it, undefined. */
export const useMemberNames = (enabled = true): Names => useNames(enabled ? "user" : undefined);

/** The tenant's API keys by id. */
export const useApiKeyNames = (enabled = true): Names => useNames(enabled ? "api_key" : undefined);

/** A workspace's fleets by id. */
export const useFleetNames = (workspaceId: string | undefined): Names => useNames("fleet", workspaceId);

/**
 * A principal (`user:<id>`, `api_key:<id>`) as words for a sentence: the person's name, "API key
 * <name>"; undefined for one no list names. Reads the members and keys lists only when `enabled`.
 */
export function usePrincipalWords(enabled = true): (principal: string) => string | undefined {
  const people = useMemberNames(enabled);
  const keys = useApiKeyNames(enabled);
  return (principal) => {
    const at = principal.indexOf(":");
    const [kind, id] = [principal.slice(0, at), principal.slice(at + 1)];
    if (kind === "user") return people?.get(id);
    const key = kind === "api_key" ? keys?.get(id) : undefined;
    return key === undefined ? undefined : `API key ${key}`;
  };
}
