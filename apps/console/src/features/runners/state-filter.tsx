"use client";

import { type ReactNode, useId } from "react";
import { Link } from "../../components/link.tsx";
import { type RunnerFilter, type RunnersPosition, runnersHref } from "../../lib/urls.ts";
import { type Liveness, livenessVariants, type RunnerStatus, runnerStatusVariants } from "./status.ts";
import type { StateCounts } from "./use-runner-census.ts";
import { isFiltered } from "./use-runner-census.ts";
import "./state-filter.css";

const livenessOrder: Liveness[] = ["online", "busy", "offline", "registered"];
const statusOrder: RunnerStatus[] = ["active", "cordoned", "draining", "drained", "revoked"];

function FilterLink({
  href,
  current,
  tone,
  children,
  count,
}: {
  href: string;
  current: boolean;
  tone: string;
  children: ReactNode;
  count: number | undefined;
}) {
  return (
    <li>
      <Link
        href={href}
        className="state-filter__link"
        data-tone={tone}
        aria-current={current ? "true" : undefined}
        scroll={false}
      >
        <span className="state-filter__dot" aria-hidden="true" />
        {children}
        <span className="state-filter__count">{count ?? "…"}</span>
      </Link>
    </li>
  );
}

/**
 * The counts per state, each a link that filters the list by it (choosing the current one again clears
 * it). Liveness, admin state and degraded combine; the choice lives in the URL.
 */
export function StateFilter({
  counts,
  filter,
  limit,
}: {
  counts: StateCounts | undefined;
  filter: RunnerFilter;
  limit: number | undefined;
}) {
  // Only the filter's own parts carry over: a new filter starts from the first page.
  const chosen: RunnerFilter = {
    status: filter.status,
    liveness: filter.liveness,
    degraded: filter.degraded,
  };
  const href = (next: RunnerFilter) => runnersHref({ ...next, limit } satisfies RunnersPosition);
  const id = useId();
  return (
    <nav className="state-filter" aria-label="Filter runners by state">
      <ul aria-label="All">
        <FilterLink href={href({})} current={!isFiltered(filter)} tone="all" count={counts?.all}>
          All runners
        </FilterLink>
      </ul>
      <div className="state-filter__group">
        <span id={`${id}-liveness`} className="state-filter__legend">
          Liveness
        </span>
        <ul aria-labelledby={`${id}-liveness`}>
          {livenessOrder.map((liveness) => (
            <FilterLink
              key={liveness}
              href={href({ ...chosen, liveness: filter.liveness === liveness ? undefined : liveness })}
              current={filter.liveness === liveness}
              tone={livenessVariants[liveness].tone}
              count={counts?.liveness[liveness]}
            >
              {livenessVariants[liveness].label}
            </FilterLink>
          ))}
        </ul>
      </div>
      <div className="state-filter__group">
        <span id={`${id}-state`} className="state-filter__legend">
          State
        </span>
        <ul aria-labelledby={`${id}-state`}>
          {statusOrder.map((status) => (
            <FilterLink
              key={status}
              href={href({ ...chosen, status: filter.status === status ? undefined : status })}
              current={filter.status === status}
              tone={runnerStatusVariants[status].tone}
              count={counts?.status[status]}
            >
              {runnerStatusVariants[status].label}
            </FilterLink>
          ))}
        </ul>
      </div>
      <ul aria-label="Sandbox">
        <FilterLink
          href={href({ ...chosen, degraded: !filter.degraded })}
          current={Boolean(filter.degraded)}
          tone="warning"
          count={counts?.degraded}
        >
          Degraded
        </FilterLink>
      </ul>
    </nav>
  );
}
