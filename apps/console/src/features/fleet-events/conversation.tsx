"use client";

import { Badge, RelativeTime, StatusBadge } from "@fleet/ui";
import { useQueries, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { EntityName } from "../../components/entity-name.tsx";
import { Link } from "../../components/link.tsx";
import { LiveStatus } from "../../components/live-status.tsx";
import { ListLoading, QueryProblem } from "../../components/query-problem.tsx";
import type { FleetView } from "../../lib/fleet-status.ts";
import { formatCost, formatCount } from "../../lib/format.ts";
import { pollInterval, useOverdue } from "../../lib/poll.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { approvalsHref } from "../../lib/urls.ts";
import {
  eventStatusVariants,
  eventTypeLabels,
  type FleetEventItem,
  type FleetEventView,
} from "./event-labels.ts";
import { formatDuration } from "./format.ts";
import { RunAgainButton } from "./run-again.tsx";
import type { LiveRun } from "./runs.ts";
import { turnIds } from "./turns.ts";
import type { EventStream } from "./use-event-stream.ts";
import { liveStateOf } from "./use-live-runs.ts";

/** The turns shown: the newest runs, oldest of them first, as a conversation reads. */
const TERMINAL = new Set(["processed", "fleet_error"]);

/** What a request said, as a person reads it: a message's text, else the payload as sent. */
export function requestText(requestJson: string | undefined): string | undefined {
  if (requestJson === undefined) return undefined;
  try {
    const body = JSON.parse(requestJson) as unknown;
    if (
      typeof body === "object" &&
      body !== null &&
      typeof (body as { message?: unknown }).message === "string"
    )
      return (body as { message: string }).message;
  } catch {
    // shown as it came
  }
  return requestJson;
}

interface Turn {
  eventId: string;
  item: FleetEventItem | undefined;
  detail: FleetEventView | undefined;
  run: LiveRun | undefined;
}

/**
 * The fleet's conversation: each request with its answer inline, and a run in flight unfolding as its
 * frames arrive (lease, tool calls with their durations, the answer as it is written, the outcome). The
 * events list and the run frames are merged by event id; without a stream the list polls.
 */
export function Conversation({
  fleet,
  runs,
  stream,
  inspectHref,
}: {
  fleet: FleetView;
  runs: ReadonlyMap<string, LiveRun>;
  /** The fleet's stream: while it is live it says when the list is stale, so the list need not poll. */
  stream: EventStream;
  inspectHref: (eventId: string) => string;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const scope = { workspace_id: fleet.workspace_id, fleet_id: fleet.fleet_id };
  // The events tab's first page asks the same: one request serves both.
  const list = useQuery(
    trpc.fleetEvents.list.queryOptions(scope, {
      refetchInterval: stream.state === "live" ? false : pollInterval,
      refetchIntervalInBackground: false,
    }),
  );
  const overdue = useOverdue(list.dataUpdatedAt);
  const live = liveStateOf(stream, {
    hasData: list.data !== undefined,
    failed: list.error !== null,
    fetching: list.isFetching,
    overdue,
  });
  const items = list.data?.items ?? [];
  const running = [...runs.values()].filter((run) => run.fleetId === fleet.fleet_id);
  const shown = turnIds(
    items.map((item) => item.event_id),
    running.map((run) => run.eventId),
  );
  const details = useQueries({
    queries: shown.map((eventId) => ({
      ...trpc.fleetEvents.get.queryOptions({ ...scope, event_id: eventId }),
      // A finished event does not change; one in flight is asked again when the list sees it move.
      staleTime: Number.POSITIVE_INFINITY,
    })),
  });
  const byId = new Map(items.map((item) => [item.event_id, item]));
  const turns: Turn[] = shown.map((eventId, index) => ({
    eventId,
    item: byId.get(eventId),
    detail: details[index]?.data,
    run: runs.get(eventId),
  }));

  // An event whose status moved since its body was read is read again (its answer has arrived).
  const moved = turns
    .filter((turn) => turn.item && turn.detail && turn.item.status !== turn.detail.status)
    .map((turn) => turn.eventId)
    .join(",");
  useEffect(() => {
    for (const eventId of moved.split(",").filter(Boolean))
      void queryClient.invalidateQueries({
        queryKey: trpc.fleetEvents.get.queryKey({ ...scope, event_id: eventId }),
      });
  }, [moved, queryClient, trpc, scope.workspace_id, scope.fleet_id]);

  // The newest turn is at the bottom, as in a chat: follow it while the reader is there, not otherwise.
  const scroller = useRef<HTMLDivElement>(null);
  const following = useRef(true);
  const tail = turns
    .map((turn) => `${turn.eventId}:${turn.run?.updatedAt ?? ""}:${turn.item?.status ?? ""}`)
    .join();
  useEffect(() => {
    const element = scroller.current;
    if (element && following.current && tail) element.scrollTop = element.scrollHeight;
  }, [tail]);
  useEffect(() => {
    const element = scroller.current;
    if (!element) return;
    const track = () => {
      following.current = element.scrollHeight - element.scrollTop - element.clientHeight < 40;
    };
    element.addEventListener("scroll", track, { passive: true });
    return () => element.removeEventListener("scroll", track);
  });

  return (
    <section className="card conversation" aria-labelledby="conversation-heading">
      <header className="card__header conversation__header">
        <h2 id="conversation-heading" className="card__title">
          Conversation
        </h2>
        <LiveStatus
          state={live}
          onReconnect={() => (stream.state === "unavailable" ? list.refetch() : stream.reconnect())}
        />
      </header>
      {list.error && list.data === undefined ? (
        <div className="card__body">
          <QueryProblem query={list} retry="always" />
        </div>
      ) : list.data === undefined && turns.length === 0 ? (
        <ListLoading>Loading the conversation…</ListLoading>
      ) : turns.length === 0 ? (
        <div className="empty-state empty-state--compact">
          <p className="empty-state__title">No messages yet</p>
          <p className="empty-state__text">
            Send the fleet a message: its answer appears here as it is written.
          </p>
        </div>
      ) : (
        <div
          ref={scroller}
          className="conversation__turns"
          role="log"
          aria-live="polite"
          aria-label={`Conversation with ${fleet.name}`}
        >
          <ol className="conversation__list">
            {turns.map((turn) => (
              <TurnView key={turn.eventId} turn={turn} fleet={fleet} inspectHref={inspectHref} />
            ))}
          </ol>
        </div>
      )}
    </section>
  );
}

function TurnView({
  turn,
  fleet,
  inspectHref,
}: {
  turn: Turn;
  fleet: FleetView;
  inspectHref: (eventId: string) => string;
}) {
  const { item, detail, run } = turn;
  const status = run?.complete?.status ?? item?.status ?? (run ? "received" : undefined);
  const type = item?.event_type ?? run?.eventType;
  const actor = item?.actor ?? run?.actor;
  const created = item?.created_at ?? run?.receivedAt;
  const request = requestText(detail?.request_json) ?? run?.requestPreview;
  const inFlight = status !== undefined && !TERMINAL.has(status);
  return (
    <li
      className="turn"
      data-event-id={turn.eventId}
      data-status={status}
      data-in-flight={inFlight || undefined}
    >
      <div className="turn__request">
        <p className="turn__meta">
          <span className="turn__who">
            {type ? (eventTypeLabels[type as FleetEventItem["event_type"]] ?? type) : "Event"}
            {actor ? (
              <>
                {" "}
                from{" "}
                <EntityName principal={actor} workspaceId={fleet.workspace_id} fleetId={fleet.fleet_id} />
              </>
            ) : null}
          </span>
          {created ? <RelativeTime value={created} /> : null}
          <Link className="turn__inspect" href={inspectHref(turn.eventId)}>
            Details<span className="ui-visually-hidden"> of event {turn.eventId}</span>
          </Link>
        </p>
        <p className="turn__text" dir="auto">
          {request ?? <span className="muted">…</span>}
        </p>
        {item && (status === "processed" || status === "fleet_error") ? (
          <div className="turn__actions">
            <RunAgainButton
              workspaceId={item.workspace_id}
              fleetId={item.fleet_id}
              eventId={turn.eventId}
              status={status}
              openHref={inspectHref}
              size="sm"
            />
          </div>
        ) : null}
      </div>
      <div className="turn__answer">
        {run && (run.leaseId || run.tools.length > 0 || run.gates.length > 0) ? <RunSteps run={run} /> : null}
        <Answer status={status} detail={detail} run={run} item={item} />
      </div>
    </li>
  );
}

function RunSteps({ run }: { run: LiveRun }) {
  return (
    <ol className="run-steps" aria-label="Steps of the run">
      {run.leaseId ? (
        <li className="run-step" data-step="lease">
          Leased by a runner <code title={run.leaseId}>{run.leaseId.slice(0, 8)}…</code>
        </li>
      ) : null}
      {run.tools.map((tool, index) => (
        <li
          // Calls have no id of their own, and are only ever appended: their order is theirs.
          key={`${index}-${tool.name}`}
          className="run-step"
          data-step="tool"
          data-done={tool.ms !== undefined || undefined}
        >
          Tool <code>{tool.name}</code>{" "}
          {tool.ms !== undefined
            ? `took ${formatDuration(tool.ms)}`
            : tool.elapsedMs !== undefined
              ? `running for ${formatDuration(tool.elapsedMs)}…`
              : "running…"}
        </li>
      ))}
      {run.gates.map((gate) => (
        <li key={gate.gateId} className="run-step" data-step="gate">
          Approval gate{gate.toolName ? ` for ${gate.toolName} ${gate.actionName}` : ""}:{" "}
          {gate.outcome ? (
            <>
              {gate.outcome} by <code>{gate.resolvedBy}</code>
            </>
          ) : (
            <Link href={approvalsHref({ status: "pending", gate: gate.gateId })}>waiting for an answer</Link>
          )}
        </li>
      ))}
    </ol>
  );
}

function Answer({
  status,
  detail,
  run,
  item,
}: {
  status: string | undefined;
  detail: FleetEventView | undefined;
  run: LiveRun | undefined;
  item: FleetEventItem | undefined;
}) {
  const stored = detail?.status === status ? detail?.response_text : undefined;
  const text = stored ?? (run?.text || undefined);
  const wall = run?.complete?.wall_ms ?? item?.wall_ms;
  const tokens = run?.complete?.tokens ?? item?.tokens;
  const cost = run?.complete?.cost ?? item?.cost_nanos;
  const failure = run?.complete?.failure_label ?? item?.failure_label;
  const usage = [
    wall === undefined ? null : formatDuration(wall),
    tokens === undefined ? null : `${formatCount(tokens)} tokens`,
    cost === undefined ? null : formatCost(cost),
  ].filter(Boolean);
  return (
    <>
      {text ? (
        <p className="turn__text turn__text--answer" dir="auto">
          {text}
        </p>
      ) : null}
      <p className="turn__outcome">
        {status && status in eventStatusVariants ? (
          <StatusBadge status={status as FleetEventItem["status"]} variants={eventStatusVariants} />
        ) : status ? (
          <Badge tone="neutral">{status}</Badge>
        ) : null}
        {status === "received" ? (
          // Without the run's frames (it began before the page opened) the page cannot tell whether a
          // runner holds it (it may wait on an approval gate), so it does not claim one is awaited; with
          // them, a lease shows only once its runner publishes a frame (none is sent at lease time), so a
          // runner that leased and went silent reads as no activity, not as no runner.
          <span className="muted">
            {run?.leaseId ? "Running…" : run ? "No runner activity yet…" : "Not answered yet"}
          </span>
        ) : null}
        {failure ? <span className="event-failure">{failure}</span> : null}
        {status === "fleet_error" && detail?.failure_detail ? (
          <span className="muted">{detail.failure_detail}</span>
        ) : null}
        {usage.length > 0 ? <span className="muted">{usage.join(" · ")}</span> : null}
      </p>
    </>
  );
}
