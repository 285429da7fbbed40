"use client";

import type { ReactNode } from "react";
import { retryable } from "../lib/problem.ts";
import type { ApiError } from "../lib/trpc.ts";
import { ListLoading, ListProblem, type QueryProblemProps } from "./query-problem.tsx";

/** What a list body needs of its query (TanStack Query's result has it all). */
export interface ListQuery<T> {
  data: T | undefined;
  error: ApiError | null;
  isPlaceholderData: boolean;
  isFetching: boolean;
  refetch: () => unknown;
}

/**
 * A list's body: why it failed (never an empty table that looks like "none"), that it is loading, or its
 * rows (`children`, which also says when there are none). A refresh that failed on an outage keeps the
 * rows it had, under the problem: they are what the person was reading, and "could not refresh" is the
 * news. A refusal (4xx) replaces them.
 */
export function ListBody<T>({
  list,
  loading,
  retry,
  ways,
  children,
}: {
  list: ListQuery<T>;
  /** Said while the first page loads, e.g. "Loading API keys…". */
  loading: string;
  retry?: QueryProblemProps["retry"];
  /** The ways on that a failed list offers after its retry (back to the first page, another workspace). */
  ways?: ReactNode;
  children: (data: T) => ReactNode;
}) {
  if (list.error && !list.isPlaceholderData) {
    if (list.data !== undefined && retryable(list.error))
      return (
        <>
          <ListProblem query={list} retry={retry === "never" ? "outage" : retry}>
            <span className="muted">Below is the list as it was last loaded.</span>
          </ListProblem>
          {children(list.data)}
        </>
      );
    return (
      <ListProblem query={list} retry={retry}>
        {ways}
      </ListProblem>
    );
  }
  if (list.data === undefined) return <ListLoading>{loading}</ListLoading>;
  return children(list.data);
}
