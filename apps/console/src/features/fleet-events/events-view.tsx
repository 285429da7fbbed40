"use client";

import { Button, PulseIcon, RelativeTime, StatusBadge } from "@fleet/ui";
import { skipToken, useQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import { EntityName } from "../../components/entity-name.tsx";
import { Link } from "../../components/link.tsx";
import { LiveStatus } from "../../components/live-status.tsx";
import { PageHeader } from "../../components/page-header.tsx";
import { ListLoading, ListProblem } from "../../components/query-problem.tsx";
import { WorkspaceCard } from "../../components/workspace-list.tsx";
import { countOf } from "../../lib/format.ts";
import { useFleetNames } from "../../lib/names.ts";
import { pollInterval, useOverdue } from "../../lib/poll.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { runHref, withQuery } from "../../lib/urls.ts";
import { useWorkspaceChoice } from "../../lib/use-workspace.ts";
import { EventFilters, type EventFilterValues } from "./event-filters.tsx";
import { eventStatusVariants, eventTypeLabels, type FleetEventItem } from "./event-labels.ts";
import { eventFeedInput } from "./feed.ts";
import { formatDuration } from "./format.ts";
import type { LiveRun } from "./runs.ts";
import { liveStateOf, useLiveRuns } from "./use-live-runs.ts";
import "../../styles/new-banner.css";
import "./event-failure.css";
import "./events-view.css";

/** The Events page's URL: its workspace and filters (a workspace switch starts unfiltered). */
export function eventsHref(workspaceId?: string, filter: EventFilterValues = {}): string {
  return withQuery("/events", {
    workspace: workspaceId,
    actor: filter.actor,
    status: filter.status,
    type: filter.type,
    since: filter.since,
    until: filter.until,
  });
}

/**
 * The workspace's events: every fleet's events, newest first, with the runs in flight unfolding as their
 * frames arrive (lease, the tool running, the answer's length so far). New events wait behind an "N new"
 * banner so the rows do not shift under the cursor. The filters (actor, status, type, time) are the events
 * list's own, kept in the URL.
 */
export function EventsView({
  workspaceId,
  filter,
}: {
  workspaceId: string | undefined;
  filter: EventFilterValues;
}) {
  const trpc = useTRPC();
  const router = useRouter();
  const { actor, status, type, since, until } = filter;
  const choice = useWorkspaceChoice(workspaceId);
  const { chosenId } = choice;
  const { runs, stream } = useLiveRuns(chosenId);
  const list = useQuery(
    trpc.fleetEvents.listWorkspace.queryOptions(chosenId ? eventFeedInput(chosenId, filter) : skipToken, {
      refetchInterval: stream.state === "live" ? false : pollInterval,
      refetchIntervalInBackground: false,
    }),
  );
  const names = useFleetNames(chosenId);
  const overdue = useOverdue(list.dataUpdatedAt);
  const live = liveStateOf(stream, {
    hasData: list.data !== undefined,
    failed: list.error !== null,
    fetching: list.isFetching,
    overdue,
  });

  // The newest event shown, per view (workspace and filters); newer ones wait behind the banner (event ids
  // are UUIDv7, so they sort by time).
  const view = JSON.stringify([chosenId, actor, status, type, since, until]);
  const items = list.data?.items ?? [];
  const newest = items[0]?.event_id ?? "";
  const [top, setTop] = useState<{ view: string; id: string } | null>(null);
  useEffect(() => {
    if (list.data !== undefined && top?.view !== view) setTop({ view, id: newest });
  }, [list.data, top, view, newest]);
  const shownTop = top !== null && top.view === view ? top.id : newest;
  const filtered = Boolean(actor || status || type || since || until);
  const shown = items.filter((item) => item.event_id <= shownTop);
  const waiting = items.length - shown.length;

  return (
    <div className="page page--wide">
      <PageHeader
        title="Events"
        description="What every fleet in the workspace is doing: events as they arrive, runs as they unfold, outcomes as they land."
      />
      <WorkspaceCard
        headingId="event-feed-heading"
        heading="Event feed"
        choice={choice}
        hrefFor={eventsHref}
        done={null}
        summary={
          <LiveStatus
            state={live}
            onReconnect={() => (stream.state === "unavailable" ? list.refetch() : stream.reconnect())}
          />
        }
      >
        <div className="event-feed__filters">
          <EventFilters
            values={filter}
            clearHref={filtered ? eventsHref(chosenId) : undefined}
            onApply={(values) => router.push(eventsHref(chosenId, values))}
          />
        </div>
        {waiting > 0 ? (
          <div className="new-banner">
            <Button size="sm" variant="primary" onClick={() => setTop({ view, id: newest })}>
              Show {waiting} new {waiting === 1 ? "event" : "events"}
            </Button>
          </div>
        ) : null}
        {list.error && list.data === undefined ? (
          <ListProblem query={list} retry="always" />
        ) : list.data === undefined ? (
          <ListLoading>Loading the events…</ListLoading>
        ) : shown.length === 0 && filtered ? (
          <div className="empty-state">
            <p className="empty-state__title">No events match the filters</p>
            <p className="empty-state__text">Widen the filters or clear them to see every event.</p>
          </div>
        ) : shown.length === 0 ? (
          <div className="empty-state">
            <PulseIcon />
            <p className="empty-state__title">Nothing has happened yet</p>
            <p className="empty-state__text">
              Messages, schedules and webhooks that reach any fleet of this workspace appear here as they
              arrive.
            </p>
          </div>
        ) : (
          <div role="log" aria-live="polite" aria-label="Events of the workspace">
            <ol className="event-feed">
              {shown.map((item) => (
                <FeedItem
                  key={item.event_id}
                  item={item}
                  run={runs.get(item.event_id)}
                  fleetName={names?.get(item.fleet_id)}
                />
              ))}
            </ol>
          </div>
        )}
      </WorkspaceCard>
    </div>
  );
}

function FeedItem({
  item,
  run,
  fleetName,
}: {
  item: FleetEventItem;
  run: LiveRun | undefined;
  fleetName: string | undefined;
}) {
  const status = (run?.complete?.status as FleetEventItem["status"] | undefined) ?? item.status;
  return (
    <li className="event-feed__item" data-event-id={item.event_id} data-status={status}>
      <RelativeTime value={item.created_at} />
      <span className="event-feed__what">
        <EntityName kind="fleet" id={item.fleet_id} workspaceId={item.workspace_id} knownName={fleetName} />{" "}
        <span className="muted">
          <Link
            href={runHref({ workspaceId: item.workspace_id, fleetId: item.fleet_id, eventId: item.event_id })}
          >
            {eventTypeLabels[item.event_type]}
            <span className="ui-visually-hidden"> run {item.event_id}</span>
          </Link>{" "}
          from <EntityName principal={item.actor} workspaceId={item.workspace_id} fleetId={item.fleet_id} />
        </span>
      </span>
      <span className="event-feed__state">
        {status in eventStatusVariants ? (
          <StatusBadge status={status} variants={eventStatusVariants} />
        ) : null}
        {run && !run.complete ? <span className="muted">{progressOf(run)}</span> : null}
        {item.failure_label ? <span className="event-failure">{item.failure_label}</span> : null}
      </span>
    </li>
  );
}

/** A run in flight in a few words: the tool running, else how much of the answer is written. */
function progressOf(run: LiveRun): string {
  // A run at a gate also has a tool running (the call that waits for the answer): the gate says more.
  if (run.gates.some((gate) => gate.outcome === undefined)) return "waiting for approval…";
  const running = run.tools.findLast((tool) => tool.ms === undefined);
  if (running)
    return `running ${running.name}${running.elapsedMs !== undefined ? ` for ${formatDuration(running.elapsedMs)}` : ""}…`;
  if (run.text) return `writing its answer (${countOf(run.text.length, "character")})…`;
  return run.leaseId ? "leased by a runner…" : "no runner activity yet…";
}
