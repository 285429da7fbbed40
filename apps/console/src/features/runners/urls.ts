import { withQuery } from "../../lib/urls.ts";
import type { Liveness, RunnerEventType, RunnerStatus } from "./status.ts";

/** The list's filter: each part narrows it further. */
export interface RunnerFilter {
  status?: RunnerStatus | undefined;
  liveness?: Liveness | undefined;
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

export function isFiltered(filter: RunnerFilter): boolean {
  return Boolean(filter.status || filter.liveness || filter.degraded);
}

/** Everything a runner's page holds in its URL: each table's page, the lease reviewed, the history filter. */
export interface RunnerPosition {
  runnerId: string;
  /** Leases: the page's cursor. */
  leasesAfter?: string | undefined;
  /** The lease open in the review dialog. */
  lease?: string | undefined;
  /** History: the event types shown (all when empty). */
  types?: readonly RunnerEventType[] | undefined;
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
