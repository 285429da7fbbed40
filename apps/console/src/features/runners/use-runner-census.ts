"use client";

import { type QueryKey, useQuery } from "@tanstack/react-query";
import { type ApiError, useTRPC, useTRPCClient } from "../../lib/trpc.ts";
import type { RunnerFilter } from "../../lib/urls.ts";
import type { Liveness, RunnerItem, RunnerStatus } from "./status.ts";

/** The census reads at most this many pages of the largest size the API serves. */
const CENSUS_PAGES = 10;
const CENSUS_PAGE_SIZE = 100;
const CENSUS_POLL_MS = 15_000;

export interface Census {
  items: RunnerItem[];
  total: number;
  /** False when there were more runners than the census reads. */
  complete: boolean;
}

/**
 * Every runner (up to 1,000, newest first), for the counts per state and for filtering. The API lists
 * runners without a state filter or counts, so the console reads them all and counts here. Kept under the
 * list's path key, so anything that refreshes the list refreshes the counts too.
 */
export function useRunnerCensus(enabled: boolean) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const queryKey: QueryKey = [...trpc.runners.list.pathKey(), { type: "census" }];
  // The client throws the same error the typed hooks report (a TRPCClientError with the problem).
  return useQuery<Census, ApiError>({
    queryKey,
    enabled,
    refetchInterval: CENSUS_POLL_MS,
    queryFn: async ({ signal }): Promise<Census> => {
      const items: RunnerItem[] = [];
      let cursor: string | undefined;
      let total = 0;
      for (let page = 0; page < CENSUS_PAGES; page++) {
        const answer = await client.runners.list.query(
          { limit: CENSUS_PAGE_SIZE, ...(cursor ? { starting_after: cursor } : {}) },
          { signal },
        );
        items.push(...answer.items);
        total = answer.total;
        if (answer.next_cursor === null) return { items, total, complete: true };
        cursor = answer.next_cursor;
      }
      return { items, total, complete: false };
    },
  });
}

export interface StateCounts {
  all: number;
  status: Record<RunnerStatus, number>;
  liveness: Record<Liveness, number>;
  degraded: number;
}

export function countStates(items: readonly RunnerItem[]): StateCounts {
  const counts: StateCounts = {
    all: items.length,
    status: { active: 0, cordoned: 0, draining: 0, drained: 0, revoked: 0 },
    liveness: { online: 0, busy: 0, offline: 0, registered: 0 },
    degraded: 0,
  };
  for (const runner of items) {
    counts.status[runner.status] += 1;
    counts.liveness[runner.liveness] += 1;
    if (runner.degraded) counts.degraded += 1;
  }
  return counts;
}

export function matches(runner: RunnerItem, filter: RunnerFilter): boolean {
  if (filter.status && runner.status !== filter.status) return false;
  if (filter.liveness && runner.liveness !== filter.liveness) return false;
  if (filter.degraded && !runner.degraded) return false;
  return true;
}

export function isFiltered(filter: RunnerFilter): boolean {
  return Boolean(filter.status || filter.liveness || filter.degraded);
}
