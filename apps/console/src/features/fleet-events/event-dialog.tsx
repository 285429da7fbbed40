"use client";

import { Button, CopyButton, Dialog, ProblemAlert, Skeleton } from "@fleet/ui";
import { skipToken, useQuery } from "@tanstack/react-query";
import { Link } from "../../components/link.tsx";
import { problemOf } from "../../lib/problem.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { runHref } from "../../lib/urls.ts";
import { diagnosticOf, EventBodies, EventFacts } from "./event-detail.tsx";
import { eventTypeLabels } from "./event-labels.ts";
import { RunAgainButton } from "./run-again.tsx";
import "../../styles/inspect-dialog.css";
import "./event-dialog.css";

/**
 * One event expanded: what came in (the request, pretty-printed), what the fleet answered, how it failed,
 * and what it cost, with a diagnostic to copy. Opened from the URL (`event=<id>`) over the fleet's list; the
 * run's own page (`runs/<id>`) shows the same facts beside its conversation.
 */
export function EventDialog({
  workspaceId,
  fleetId,
  eventId,
  onClose,
  inspectHref,
}: {
  workspaceId: string;
  fleetId: string;
  eventId: string | undefined;
  onClose: () => void;
  inspectHref: (eventId: string) => string;
}) {
  const trpc = useTRPC();
  const event = useQuery(
    trpc.fleetEvents.get.queryOptions(
      eventId ? { workspace_id: workspaceId, fleet_id: fleetId, event_id: eventId } : skipToken,
    ),
  );
  const data = event.data;
  return (
    <Dialog
      open={eventId !== undefined}
      onClose={onClose}
      size="wide"
      title={data ? `${eventTypeLabels[data.event_type]} event` : "Event"}
      description={eventId ? <code className="event-id">{eventId}</code> : undefined}
      footer={
        <>
          {data ? (
            <span className="dialog-footer__start">
              <CopyButton value={diagnosticOf(data)} label="Copy diagnostic" labelled />
              <Link href={runHref({ workspaceId, fleetId, eventId: data.event_id })}>
                Open the run's page
              </Link>
              <RunAgainButton
                key={data.event_id}
                workspaceId={workspaceId}
                fleetId={fleetId}
                eventId={data.event_id}
                status={data.status}
                openHref={inspectHref}
              />
            </span>
          ) : null}
          <Button onClick={onClose} data-autofocus>
            Close
          </Button>
        </>
      }
    >
      {event.error ? (
        <ProblemAlert problem={problemOf(event.error)} />
      ) : data === undefined ? (
        <Skeleton label="Loading the event…" shape="lines" />
      ) : (
        <div className="event-detail" data-event-id={data.event_id}>
          <EventFacts data={data} inspectHref={inspectHref} />
          <EventBodies data={data} />
        </div>
      )}
    </Dialog>
  );
}
