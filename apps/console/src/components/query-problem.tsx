"use client";

import { Button, ProblemAlert, Skeleton } from "@fleet/ui";
import type { ReactNode } from "react";
import { problemOf, retryable } from "../lib/problem.ts";
import type { ApiError } from "../lib/trpc.ts";

export interface QueryProblemProps {
  query: { error: ApiError | null; isFetching: boolean; refetch: () => unknown };
  /** When to offer a retry: only for an outage (a refusal answers the same again), always, or never. */
  retry?: "outage" | "always" | "never";
  /** The ways on that the page offers, after the retry. */
  children?: ReactNode;
}

/** A failed query's problem, with a retry where one may help; nothing while the query has not failed. */
export function QueryProblem({ query, retry = "outage", children }: QueryProblemProps) {
  if (query.error === null) return null;
  return (
    <ProblemAlert problem={problemOf(query.error)}>
      {retry === "always" || (retry === "outage" && retryable(query.error)) ? (
        <Button size="sm" pending={query.isFetching} onClick={() => query.refetch()}>
          Try again
        </Button>
      ) : null}
      {children}
    </ProblemAlert>
  );
}

/** A list that failed shows why in its card, never an empty list that looks like "none". */
export function ListProblem(props: QueryProblemProps) {
  return (
    <div className="card__body">
      <QueryProblem {...props} />
    </div>
  );
}

/** A card's list while it loads: rows of placeholder bars, the words (children) said to assistive technology. */
export function ListLoading({ children }: { children: ReactNode }) {
  return (
    <div className="card__body">
      <Skeleton label={children} />
    </div>
  );
}

/** A failed action's problem, shown until dismissed; dismissing forgets the failure. */
export function ActionProblem({ action }: { action: { error: ApiError | null; reset: () => void } }) {
  if (action.error === null) return null;
  return (
    <ProblemAlert problem={problemOf(action.error)}>
      <Button size="sm" onClick={() => action.reset()}>
        Dismiss
      </Button>
    </ProblemAlert>
  );
}
