"use client";

import { Badge, RelativeTime, StatusBadge } from "@fleet/ui";
import { Fragment } from "react";
import { EntityName } from "../../components/entity-name.tsx";
import { Link } from "../../components/link.tsx";
import type { FleetView } from "../../lib/fleet-status.ts";
import { countOf, formatCost } from "../../lib/format.ts";
import { approvalsHref, runHref } from "../../lib/urls.ts";
import { actionLabel } from "../approvals/labels.ts";
import {
  eventStatusVariants,
  eventTypeLabels,
  type FleetEventItem,
  type FleetEventView,
} from "./event-labels.ts";
import { formatDuration } from "./format.ts";
import { RunAgainButton } from "./run-again.tsx";
import { type GateView, gatesOfRun, type LiveRun, textAroundTools, waitingGate } from "./runs.ts";
import { ToolStep } from "./tool-step.tsx";
import { requestText } from "./turns.ts";
import type { Turn } from "./use-conversation.ts";
import "./event-failure.css";
import "./turn.css";

/** The statuses a run ends in; any other is in flight. */
const TERMINAL = new Set(["processed", "fleet_error"]);

/**
 * One request and its answer, with the run's steps: the gates it opened (stored, so they show after a
 * reload) and, from the frames seen while the page is open, its lease and tool calls.
 */
export function TurnView({
  turn,
  fleet,
  inspectHref,
  linkToRun = true,
}: {
  turn: Turn;
  fleet: FleetView;
  /** Where Run again opens the new run. */
  inspectHref: (eventId: string) => string;
  /** Whether the turn links to its run's page (not on that page itself). */
  linkToRun?: boolean;
}) {
  const { item, detail, run } = turn;
  const gates = gatesOfRun(detail?.gates, run?.gates);
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
          {linkToRun ? (
            <Link
              className="turn__inspect"
              href={runHref({
                workspaceId: fleet.workspace_id,
                fleetId: fleet.fleet_id,
                eventId: turn.eventId,
              })}
            >
              Open run<span className="ui-visually-hidden"> {turn.eventId}</span>
            </Link>
          ) : null}
        </p>
        <p className="turn__text" dir="auto">
          {request ?? <span className="muted">…</span>}
        </p>
        {linkToRun && item && (status === "processed" || status === "fleet_error") ? (
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
        {run?.leaseId || (run?.tools.length ?? 0) > 0 || gates.length > 0 ? (
          <RunSteps run={run} gates={gates} workspaceId={fleet.workspace_id} inFlight={inFlight} />
        ) : null}
        <Answer
          status={status}
          detail={detail}
          run={run}
          item={item}
          waiting={waitingGate(gates)}
          workspaceId={fleet.workspace_id}
        />
      </div>
    </li>
  );
}

/** The gate's action as the inbox names it. */
const gateAction = (gate: GateView) =>
  actionLabel({ tool_name: gate.toolName, action_name: gate.actionName });

/** The inbox opened on one gate, in its workspace. */
const gateHref = (workspaceId: string, gateId: string) =>
  approvalsHref({ workspaceId, status: "pending", gate: gateId });

function RunSteps({
  run,
  gates,
  workspaceId,
  inFlight,
}: {
  run: LiveRun | undefined;
  gates: readonly GateView[];
  workspaceId: string;
  /** A finished run waits for nothing: a gate still pending was left unanswered. */
  inFlight: boolean;
}) {
  const { before } = textAroundTools(run ?? { text: "", tools: [] });
  return (
    <ol className="run-steps" aria-label="Steps of the run">
      {run?.leaseId ? (
        <li className="run-step" data-step="lease">
          Leased by a runner <code title={run.leaseId}>{run.leaseId.slice(0, 8)}…</code>
        </li>
      ) : null}
      {(run?.tools ?? []).map((tool, index) => {
        // A call without an id (an executor that calls no model) is keyed by its place: calls only append.
        const key = tool.callId ?? `${index}-${tool.name}`;
        const said = before[index];
        return (
          <Fragment key={key}>
            {said ? (
              // What the model wrote before it called the tool, in the order it was written.
              <li className="run-step run-step--text turn__text" data-step="text" dir="auto">
                {said}
              </li>
            ) : null}
            <ToolStep tool={tool} />
          </Fragment>
        );
      })}
      {gates.map((gate) => (
        <li key={gate.gateId} className="run-step" data-step="gate" data-outcome={gate.outcome ?? "pending"}>
          Approval gate{gate.toolName ? ` for ${gateAction(gate)}` : ""}:{" "}
          {gate.outcome ? (
            <>
              {gateOutcomeWords[gate.outcome] ?? gate.outcome}
              {gate.resolvedBy ? (
                <>
                  {" "}
                  by <EntityName principal={gate.resolvedBy} workspaceId={workspaceId} />
                </>
              ) : null}
            </>
          ) : (
            <Link href={gateHref(workspaceId, gate.gateId)}>
              {inFlight ? "waiting for an answer" : "not answered before the run ended"}
            </Link>
          )}
        </li>
      ))}
    </ol>
  );
}

/** A gate's answer in a sentence's words ("approved by …"). */
const gateOutcomeWords: Record<string, string> = {
  approved: "approved",
  denied: "denied",
  timed_out: "timed out unanswered",
  auto_killed: "closed with its fleet (stopped, killed or deleted)",
};

function Answer({
  status,
  detail,
  run,
  item,
  waiting,
  workspaceId,
}: {
  status: string | undefined;
  detail: FleetEventView | undefined;
  run: LiveRun | undefined;
  item: FleetEventItem | undefined;
  /** The gate the run waits at, if it does. */
  waiting: GateView | undefined;
  workspaceId: string;
}) {
  const stored = detail?.status === status ? detail?.response_text : undefined;
  // Live, the answer is what the model wrote after its last tool call; the steps show what came before.
  const text = stored ?? (run ? textAroundTools(run).after || undefined : undefined);
  const wall = run?.complete?.wall_ms ?? item?.wall_ms;
  const tokens = run?.complete?.tokens ?? item?.tokens;
  const cost = run?.complete?.cost ?? item?.cost_nanos;
  const failure = run?.complete?.failure_label ?? item?.failure_label;
  const usage = [
    wall === undefined ? null : formatDuration(wall),
    tokens === undefined ? null : countOf(tokens, "token"),
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
        {status === "received" && waiting ? (
          // Said from the stored gate as well as the frames, so a reload or a later visitor sees it.
          <>
            <Badge tone="warning">Waiting for approval</Badge>
            <Link href={gateHref(workspaceId, waiting.gateId)}>
              Open the gate{waiting.toolName ? ` for ${gateAction(waiting)}` : ""}
            </Link>
          </>
        ) : status && status in eventStatusVariants ? (
          <StatusBadge status={status as FleetEventItem["status"]} variants={eventStatusVariants} />
        ) : status ? (
          <Badge tone="neutral">{status}</Badge>
        ) : null}
        {status === "received" && !waiting ? (
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
