"use client";

import { Badge, CopyButton, Skeleton, StatusBadge } from "@fleet/ui";
import { useQuery } from "@tanstack/react-query";
import { useCallback, useEffect, useMemo, useState } from "react";
import { Link } from "../../components/link.tsx";
import { LiveStatus } from "../../components/live-status.tsx";
import { QueryProblem } from "../../components/query-problem.tsx";
import { formatRetention } from "../../lib/format.ts";
import { pollInterval, useOverdue } from "../../lib/poll.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { fleetHref, fleetsHref, runHref } from "../../lib/urls.ts";
import { FleetWithoutWorkspace } from "../fleets/fleet-header.tsx";
import { diagnosticOf, EventBodies, EventFacts } from "./event-detail.tsx";
import { eventStatusVariants, eventTypeLabels } from "./event-labels.ts";
import { RunAgainButton } from "./run-again.tsx";
import { RunGate } from "./run-gate.tsx";
import { gatesOfRun, runFromFrames, waitingGate } from "./runs.ts";
import type { RunFrame } from "./stream-frames.ts";
import { TurnView } from "./turn.tsx";
import { liveStateOf, useLiveRuns } from "./use-live-runs.ts";
import { useRunFrames } from "./use-run-frames.ts";
import "../../styles/card-parts.css";
import "../../styles/detail-page.css";
import "../../styles/inspect-dialog.css";
import "./conversation.css";
import "./run-view.css";

/** One run's page: its conversation and steps (live while it runs), its facts and spend, then its bodies. */
export function RunView({
  workspaceId,
  fleetId,
  eventId,
}: {
  workspaceId: string | undefined;
  fleetId: string;
  eventId: string;
}) {
  if (workspaceId === undefined) return <FleetWithoutWorkspace />;
  return <Run workspaceId={workspaceId} fleetId={fleetId} eventId={eventId} />;
}

function Run({ workspaceId, fleetId, eventId }: { workspaceId: string; fleetId: string; eventId: string }) {
  const trpc = useTRPC();
  const scope = { workspace_id: workspaceId, fleet_id: fleetId };
  const fleet = useQuery(trpc.fleets.get.queryOptions(scope));
  // The run's frames seen live, beside those the API kept: the page shows its steps after a reload too.
  const [liveFrames, setLiveFrames] = useState<readonly RunFrame[]>([]);
  const keep = useCallback(
    (frame: RunFrame) => {
      if (frame.event_id === eventId) setLiveFrames((current) => [...current, frame]);
    },
    [eventId],
  );
  const { stream } = useLiveRuns(workspaceId, fleetId, keep);
  const stored = useRunFrames(scope, eventId);
  const run = useMemo(() => runFromFrames(stored.data?.frames ?? [], liveFrames), [stored.data, liveFrames]);
  const event = useQuery(
    trpc.fleetEvents.get.queryOptions(
      { ...scope, event_id: eventId },
      {
        // The stream says when the run moves (its frames refetch this read); without one, a run in
        // flight is asked again every few seconds while the page is shown.
        refetchInterval: (query) =>
          stream.state === "live" ||
          (query.state.data !== undefined && query.state.data.status !== "received")
            ? false
            : pollInterval(query),
        refetchIntervalInBackground: false,
      },
    ),
  );
  const overdue = useOverdue(event.dataUpdatedAt);
  const live = liveStateOf(stream, {
    hasData: event.data !== undefined,
    failed: event.error !== null,
    fetching: event.isFetching,
    overdue,
  });
  const openRun = (id: string) => runHref({ workspaceId, fleetId, eventId: id });
  const fleetPage = fleetHref({ workspaceId, fleetId, tab: "events" });

  const [answeredGate, setAnsweredGate] = useState<string | undefined>(undefined);
  const waitingId =
    event.data?.status === "received" && run?.complete === undefined
      ? waitingGate(gatesOfRun(event.data.gates, run?.gates))?.gateId
      : undefined;
  useEffect(() => {
    if (waitingId !== undefined) setAnsweredGate(waitingId);
  }, [waitingId]);
  const data = event.data;
  if (event.error && data === undefined)
    return (
      <div className="page">
        <QueryProblem query={event}>
          <Link className="ui-button ui-button--secondary ui-button--sm" href={fleetPage}>
            Back to the fleet
          </Link>
        </QueryProblem>
      </div>
    );
  if (data === undefined || fleet.data === undefined)
    return (
      <div className="page">
        <Skeleton label="Loading the run…" shape="page" />
      </div>
    );

  const status = run?.complete?.status ?? data.status;
  const waiting = status === "received" ? waitingGate(gatesOfRun(data.gates, run?.gates)) : undefined;
  // The gate answered here stays shown (with what the answer came to) until the run ends.
  const shownGate = waiting?.gateId ?? (status === "received" ? answeredGate : undefined);
  return (
    <div className="page page--fluid run-page" data-event-id={eventId} data-status={status}>
      <nav aria-label="Breadcrumb" className="breadcrumb">
        <ol>
          <li>
            <Link href={fleetsHref(workspaceId)}>Fleets</Link>
          </li>
          <li>
            <Link href={fleetPage}>{fleet.data.name}</Link>
          </li>
          <li aria-current="page">Run {eventId.slice(0, 8)}…</li>
        </ol>
      </nav>
      <header className="page-header fleet-header">
        <div>
          <div className="fleet-header__title">
            <h1 className="page-header__title">
              {eventTypeLabels[data.event_type]} run of {fleet.data.name}
            </h1>
            {waiting ? (
              <Badge tone="warning">Waiting for approval</Badge>
            ) : status in eventStatusVariants ? (
              <StatusBadge status={status as typeof data.status} variants={eventStatusVariants} />
            ) : null}
          </div>
          <p className="fleet-header__meta">
            <span>
              Event <code>{eventId}</code> <CopyButton value={eventId} label="Copy the event id" />
            </span>
          </p>
        </div>
        <div className="page-header__actions">
          <CopyButton value={diagnosticOf(data)} label="Copy diagnostic" labelled />
          <RunAgainButton
            key={data.event_id}
            workspaceId={workspaceId}
            fleetId={fleetId}
            eventId={data.event_id}
            status={status as typeof data.status}
            openHref={openRun}
          />
        </div>
      </header>
      <div className="run-grid">
        <section className="card conversation run-page__conversation" aria-labelledby="run-conversation">
          <header className="card__header conversation__header">
            <h2 id="run-conversation" className="card__title">
              Conversation
            </h2>
            <LiveStatus
              state={live}
              onReconnect={() => (stream.state === "unavailable" ? event.refetch() : stream.reconnect())}
            />
          </header>
          <div
            className="conversation__turns"
            role="log"
            aria-live="polite"
            aria-label="The run's conversation"
          >
            <ol className="conversation__list">
              <TurnView
                turn={{ eventId, item: data, detail: data, run }}
                fleet={fleet.data}
                inspectHref={openRun}
                linkToRun={false}
              />
            </ol>
          </div>
          {/* Outside the log: a form is no announcement, and the gate is not cut by its scroll. */}
          {shownGate ? <RunGate workspaceId={workspaceId} gateId={shownGate} /> : null}
          {run === undefined && stored.data !== undefined && data.status !== "received" ? (
            <p className="muted run-page__note">
              No steps are kept for this run: a run's tool calls and text are kept for{" "}
              {formatRetention(stored.data.retentionHours)} (the first 2,000 frames of each try), and this
              page shows its stored answer and gates.
            </p>
          ) : null}
        </section>
        <section className="card run-page__facts" aria-labelledby="run-facts">
          <header className="card__header">
            <h2 id="run-facts" className="card__title">
              Run
            </h2>
          </header>
          <div className="card__body event-detail">
            <EventFacts data={data} inspectHref={openRun} />
          </div>
        </section>
      </div>
      <section className="card run-page__bodies" aria-labelledby="run-bodies">
        <header className="card__header">
          <h2 id="run-bodies" className="card__title">
            Request and answer as stored
          </h2>
        </header>
        <div className="card__body event-detail">
          <EventBodies data={data} />
        </div>
      </section>
    </div>
  );
}
