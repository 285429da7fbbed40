"use client";

import { Button, CursorPager, ProblemAlert } from "@fleet/ui";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { Link } from "../../components/link.tsx";
import { type LiveState, LiveStatus } from "../../components/live-status.tsx";
import { ListLoading } from "../../components/query-problem.tsx";
import type { FleetView } from "../../lib/fleet-status.ts";
import { pollInterval, useOverdue } from "../../lib/poll.ts";
import { problemOf } from "../../lib/problem.ts";
import { useShortcuts } from "../../lib/shortcuts.tsx";
import { useTRPC } from "../../lib/trpc.ts";
import { type FleetPosition, fleetHref } from "../../lib/urls.ts";
import { EventDialog } from "./event-dialog.tsx";
import { EventFilters, type EventFilterValues } from "./event-filters.tsx";
import { EventsTable } from "./events-table.tsx";
import type { EventStream } from "./use-event-stream.ts";
import { liveStateOf } from "./use-live-runs.ts";
import "../../styles/card-parts.css";
import "../../styles/new-banner.css";
import "./events-panel.css";

/**
 * The fleet's events, newest first. The first page follows new events, but they do not shift the rows
 * under the cursor: they wait behind an "N new" banner until shown (a message sent from this page shows at
 * once). Filters, page and the inspected event are all in the URL.
 */
export function EventsPanel({
  fleet,
  position,
  latestSent,
  stream,
}: {
  fleet: FleetView;
  position: FleetPosition;
  /** The fleet's event stream: while it is live the list refetches on its word instead of polling. */
  stream: EventStream;
  /** The id of the last message sent from this page: it and anything older is shown without asking. */
  latestSent: string | null;
}) {
  const trpc = useTRPC();
  const router = useRouter();
  const log = useRef<HTMLDivElement>(null);
  const { actor, status, type, since, until, after } = position;
  const onFirstPage = after === undefined;
  const list = useQuery(
    trpc.fleetEvents.list.queryOptions(
      {
        workspace_id: position.workspaceId,
        fleet_id: position.fleetId,
        ...(actor ? { actor } : {}),
        ...(status ? { status } : {}),
        ...(type ? { event_type: type } : {}),
        ...(since ? { since } : {}),
        ...(until ? { until } : {}),
        ...(after ? { starting_after: after } : {}),
      },
      {
        placeholderData: keepPreviousData,
        refetchInterval: onFirstPage && stream.state !== "live" ? pollInterval : false,
        refetchIntervalInBackground: false,
      },
    ),
  );

  // The newest event the person has been shown, per view (filters and page); newer ones wait.
  const view = JSON.stringify([actor, status, type, since, until, after]);
  const [accepted, setAccepted] = useState<{ view: string; top: string } | null>(null);
  const items = list.isPlaceholderData ? undefined : list.data?.items;
  const currentTop = items?.[0]?.event_id ?? "";
  const top = accepted?.view === view ? accepted.top : currentTop;
  useEffect(() => {
    if (items !== undefined && accepted?.view !== view) setAccepted({ view, top: currentTop });
  }, [items, accepted, view, currentTop]);
  useEffect(() => {
    if (latestSent) setAccepted((current) => ({ view, top: maxId(current?.top ?? "", latestSent) }));
  }, [latestSent, view]);

  // Event ids are UUIDv7: their order is their creation order.
  const shown = (list.data?.items ?? []).filter((event) => event.event_id <= top);
  const waiting = (list.data?.items ?? []).length - shown.length;

  const href = (patch: Partial<FleetPosition>) => fleetHref({ ...position, ...patch });
  const showLatest = () => {
    setAccepted({ view, top: currentTop });
    log.current?.scrollIntoView({ block: "nearest" });
  };

  useShortcuts("Events", [
    {
      key: "/",
      description: "Filter the events by actor",
      run: () => document.querySelector<HTMLInputElement>('.events input[name="actor"]')?.focus(),
    },
    {
      key: "n",
      description: "Show new events, or go back to the latest page",
      run: () => (onFirstPage ? showLatest() : router.push(href({ after: undefined }))),
    },
  ]);

  const overdue = useOverdue(list.dataUpdatedAt);
  const live: LiveState = !onFirstPage
    ? "paused"
    : liveStateOf(stream, {
        hasData: list.data !== undefined,
        failed: list.error !== null,
        fetching: list.isFetching,
        overdue,
      });

  const filtered = Boolean(actor || status || type || since || until);
  const unfiltered = {
    actor: undefined,
    status: undefined,
    type: undefined,
    since: undefined,
    until: undefined,
    after: undefined,
  };
  return (
    <div className="events">
      <div className="events__toolbar">
        <EventFilters
          values={{ actor, status, type, since, until }}
          clearHref={filtered ? href(unfiltered) : undefined}
          onApply={(values: EventFilterValues) => router.push(href({ ...values, after: undefined }))}
        />
        <div className="events__live">
          <LiveStatus
            state={live}
            onReconnect={() => (stream.state === "unavailable" ? list.refetch() : stream.reconnect())}
          />
          {!onFirstPage ? (
            <Link className="ui-button ui-button--secondary ui-button--sm" href={href({ after: undefined })}>
              Jump to latest
            </Link>
          ) : null}
        </div>
      </div>
      {waiting > 0 ? (
        <div className="new-banner">
          <Button size="sm" variant="primary" onClick={showLatest}>
            Show {waiting} new {waiting === 1 ? "event" : "events"}
          </Button>
        </div>
      ) : null}
      {list.error && list.data === undefined ? (
        // A failed list shows why, never an empty list.
        <div className="card__body">
          <ProblemAlert problem={problemOf(list.error)}>
            {after || filtered ? (
              <Link className="ui-button ui-button--secondary ui-button--sm" href={href(unfiltered)}>
                Show the latest events, unfiltered
              </Link>
            ) : (
              <Button size="sm" pending={list.isFetching} onClick={() => list.refetch()}>
                Try again
              </Button>
            )}
          </ProblemAlert>
        </div>
      ) : list.data === undefined ? (
        <ListLoading>Loading events…</ListLoading>
      ) : (
        <div
          ref={log}
          className="events__log"
          role="log"
          aria-live="polite"
          aria-label={`Events of ${fleet.name}`}
        >
          {shown.length === 0 ? (
            <div className="empty-state empty-state--compact">
              <p className="empty-state__title">
                {after ? "No more events" : filtered ? "No events match the filters" : "No events yet"}
              </p>
              <p className="empty-state__text">
                {after
                  ? "This page is past the oldest event."
                  : filtered
                    ? "Widen the filters or clear them to see every event."
                    : "Messages, webhooks and triggers become events here, newest first."}
              </p>
            </div>
          ) : (
            <EventsTable
              events={shown}
              fleetName={fleet.name}
              inspectHref={(eventId) => href({ event: eventId })}
              busy={list.isPlaceholderData}
            />
          )}
        </div>
      )}
      {list.data && (after || list.data.next_cursor) ? (
        <CursorPager
          label="Pages of events"
          summary={`${shown.length} shown · newest first`}
          firstHref={after ? href({ after: undefined }) : undefined}
          nextHref={list.data.next_cursor ? href({ after: list.data.next_cursor }) : undefined}
          link={Link}
        />
      ) : null}
      <EventDialog
        workspaceId={position.workspaceId}
        fleetId={position.fleetId}
        eventId={position.event}
        onClose={() => router.replace(href({ event: undefined }), { scroll: false })}
        inspectHref={(eventId) => href({ event: eventId })}
      />
    </div>
  );
}

function maxId(a: string, b: string): string {
  return a > b ? a : b;
}
