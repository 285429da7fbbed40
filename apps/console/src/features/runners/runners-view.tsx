"use client";

import { Button, ProblemAlert, type ProblemView, ServerIcon } from "@fleet/ui";
import { keepPreviousData, skipToken, useQuery } from "@tanstack/react-query";
import { type ReactNode, useEffect, useState } from "react";
import { Link } from "../../components/link.tsx";
import { type LiveState, LiveStatus } from "../../components/live-status.tsx";
import { PageHeader } from "../../components/page-header.tsx";
import { ListLoading } from "../../components/query-problem.tsx";
import { problemOf } from "../../lib/problem.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { type RunnersPosition, runnersHref } from "../../lib/urls.ts";
import {
  OperatorAccessCard,
  OperatorIdentity,
  type OperatorSession,
  refusesOperator,
} from "./operator-access.tsx";
import { RunnersTable } from "./runners-table.tsx";
import { StateFilter } from "./state-filter.tsx";
import type { RunnerItem } from "./status.ts";
import { countStates, isFiltered, matches, useRunnerCensus } from "./use-runner-census.ts";
import "../../styles/new-banner.css";
import "./runners-view.css";
import { countOf } from "../../lib/format.ts";

const LIST_POLL_MS = 10_000;
const DEFAULT_LIMIT = 50;

const description =
  "Execution hosts that lease the fleets' work. Cordon a runner to stop new work, drain it to let its leases finish, revoke it to refuse its token for good.";

export function RunnersView({
  operator,
  accessProblem,
  position,
}: {
  operator: OperatorSession | null;
  accessProblem: ProblemView | null;
  position: RunnersPosition;
}) {
  if (operator === null) {
    return (
      <div className="page page--fluid">
        <PageHeader title="Runners" description={description} />
        <OperatorAccessCard problem={accessProblem} refused={false} returnTo={runnersHref(position)} />
      </div>
    );
  }
  return <RunnersList operator={operator} accessProblem={accessProblem} position={position} />;
}

function RunnersList({
  operator,
  accessProblem,
  position,
}: {
  operator: OperatorSession;
  accessProblem: ProblemView | null;
  position: RunnersPosition;
}) {
  const trpc = useTRPC();
  const filtered = isFiltered(position);
  const limit = position.limit ?? DEFAULT_LIMIT;
  const census = useRunnerCensus(true);
  const list = useQuery(
    trpc.runners.list.queryOptions(
      filtered
        ? skipToken
        : {
            limit,
            ...(position.startingAfter ? { starting_after: position.startingAfter } : {}),
          },
      { placeholderData: keepPreviousData, refetchInterval: LIST_POLL_MS },
    ),
  );

  // New runners on the first page wait behind a banner instead of pushing the rows down.
  const onFirstPage = !filtered && position.startingAfter === undefined;
  const [accepted, setAccepted] = useState<string | null>(null);
  const items = list.isPlaceholderData ? undefined : list.data?.items;
  const currentTop = items?.[0]?.runner_id ?? "";
  useEffect(() => {
    if (items !== undefined && accepted === null) setAccepted(currentTop);
  }, [items, accepted, currentTop]);
  const top = accepted ?? currentTop;

  const refusal = [list.error, census.error].find(refusesOperator);
  if (refusal) {
    return (
      <div className="page page--fluid">
        <PageHeader title="Runners" description={description} />
        <OperatorAccessCard
          problem={accessProblem ?? problemOf(refusal)}
          refused
          returnTo={runnersHref(position)}
        />
      </div>
    );
  }

  const hrefAt = (patch: Partial<RunnersPosition>) =>
    runnersHref({ ...position, startingAfter: undefined, after: undefined, ...patch });
  const firstHref = hrefAt({});

  let body: ReactNode;
  let waiting = 0;
  const source = filtered ? census : list;
  if (source.error && source.data === undefined) {
    // A failed list shows why, never an empty table that reads as "no runners".
    body = (
      <div className="card__body">
        <ProblemAlert problem={problemOf(source.error)}>
          <Button size="sm" pending={source.isFetching} onClick={() => source.refetch()}>
            Try again
          </Button>
          {position.startingAfter || position.after ? (
            <Link className="ui-button ui-button--secondary ui-button--sm" href={firstHref}>
              Back to the first page
            </Link>
          ) : null}
        </ProblemAlert>
      </div>
    );
  } else if (filtered) {
    const all = census.data?.items.filter((runner) => matches(runner, position));
    if (all === undefined) {
      body = <Loading />;
    } else {
      // Runner ids are UUIDv7 and the list is newest first: a page starts after the previous page's last id.
      const rest = position.after ? all.filter((runner) => runner.runner_id < position.after!) : all;
      const page = rest.slice(0, limit);
      const last = page.at(-1);
      body =
        page.length === 0 ? (
          <Empty
            title={position.after ? "No more runners match" : "No runners match"}
            text="No runner is in every state the filter names. Choose another state, or show all runners."
            action={
              <Link className="ui-button ui-button--secondary" href={runnersHref({ limit: position.limit })}>
                Show all runners
              </Link>
            }
          />
        ) : (
          <RunnersTable
            runners={page}
            caption="Runners in the chosen states, newest first"
            busy={false}
            pager={{
              label: "Pages of runners",
              summary: `${page.length} shown · ${all.length} of ${countOf(census.data?.total ?? all.length, "runner")} match`,
              firstHref: position.after ? firstHref : undefined,
              nextHref: rest.length > limit && last ? hrefAt({ after: last.runner_id }) : undefined,
              link: Link,
            }}
          />
        );
    }
  } else if (list.data === undefined) {
    body = <Loading />;
  } else if (list.data.items.length === 0) {
    body = position.startingAfter ? (
      <Empty
        title="No more runners"
        text="This page is past the oldest runner."
        action={
          <Link className="ui-button ui-button--secondary" href={firstHref}>
            Back to the first page
          </Link>
        }
      />
    ) : (
      <Empty
        title="No runners enrolled yet"
        text="A runner enrols with an operator token (POST /v1/runners); `pnpm start` enrols a local development runner."
      />
    );
  } else {
    const page = list.data;
    const shown: RunnerItem[] = onFirstPage
      ? page.items.filter((runner) => runner.runner_id <= top)
      : page.items;
    waiting = page.items.length - shown.length;
    body = (
      <RunnersTable
        runners={shown}
        caption="Runners, newest first"
        busy={list.isPlaceholderData}
        pager={{
          label: "Pages of runners",
          summary: `${shown.length} shown · ${page.total} ${page.total === 1 ? "runner" : "runners"}`,
          firstHref: position.startingAfter ? firstHref : undefined,
          nextHref: page.next_cursor ? hrefAt({ startingAfter: page.next_cursor }) : undefined,
          link: Link,
        }}
      />
    );
  }

  const live: LiveState =
    !filtered && !onFirstPage
      ? "paused"
      : source.data === undefined
        ? source.error
          ? "offline"
          : "connecting"
        : source.error
          ? source.isFetching
            ? "reconnecting"
            : "offline"
          : "live";

  return (
    <div className="page page--fluid">
      <PageHeader
        title="Runners"
        description={description}
        actions={<OperatorIdentity session={operator} />}
      />
      <section className="card" aria-labelledby="runners-heading">
        <h2 id="runners-heading" className="ui-visually-hidden">
          Runners
        </h2>
        <div className="card__toolbar runners-toolbar">
          <StateFilter
            counts={census.data ? countStates(census.data.items) : undefined}
            filter={position}
            limit={position.limit}
          />
          <div className="card__toolbar-end">
            <LiveStatus state={live} onReconnect={() => source.refetch()} />
          </div>
        </div>
        {census.data && !census.data.complete ? (
          <p className="runners-note">
            The counts and filters cover the newest {census.data.items.length.toLocaleString("en")} of{" "}
            {countOf(census.data.total, "runner")}.
          </p>
        ) : null}
        {!filtered && census.error && !refusesOperator(census.error) ? (
          <div className="card__body">
            <ProblemAlert problem={problemOf(census.error)} />
          </div>
        ) : null}
        {waiting > 0 ? (
          <div className="new-banner">
            <Button size="sm" variant="primary" onClick={() => setAccepted(currentTop)}>
              Show {waiting} new {waiting === 1 ? "runner" : "runners"}
            </Button>
          </div>
        ) : null}
        {body}
      </section>
    </div>
  );
}

function Loading() {
  return <ListLoading>Loading runners…</ListLoading>;
}

function Empty({ title, text, action }: { title: string; text: string; action?: ReactNode }) {
  return (
    <div className="empty-state">
      <span className="empty-state__icon" aria-hidden="true">
        <ServerIcon />
      </span>
      <p className="empty-state__title">{title}</p>
      <p className="empty-state__text">{text}</p>
      {action}
    </div>
  );
}
