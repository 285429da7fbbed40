"use client";

import { Callout, formatUtc, JsonViewer, RelativeTime, StatusBadge } from "@fleet/ui";
import { EntityName } from "../../components/entity-name.tsx";
import { Fact, none } from "../../components/fact.tsx";
import { Link } from "../../components/link.tsx";
import { formatCost, formatCount } from "../../lib/format.ts";
import { eventStatusVariants, type FleetEventView } from "./event-labels.ts";
import { formatDuration } from "./format.ts";
import "../../styles/facts.css";

/** The event as text to paste into a ticket or a chat with support: ids, times and the failure, no bodies. */
export function diagnosticOf(event: FleetEventView): string {
  const lines = [
    `event ${event.event_id} (${event.event_type}, ${event.status})`,
    `fleet ${event.fleet_id} in workspace ${event.workspace_id}`,
    `actor ${event.actor}`,
    `created ${formatUtc(event.created_at)}, updated ${formatUtc(event.updated_at)}`,
  ];
  if (event.failure_label || event.failure_detail) {
    lines.push(`failure ${event.failure_label ?? "(no label)"}: ${event.failure_detail ?? "(no detail)"}`);
  }
  const usage = [
    event.tokens === undefined ? null : `tokens ${event.tokens}`,
    event.wall_ms === undefined ? null : `wall ${event.wall_ms} ms`,
    event.cost_nanos === undefined ? null : `cost ${event.cost_nanos} nano-dollars`,
  ].filter(Boolean);
  if (usage.length > 0) lines.push(usage.join(", "));
  if (event.resumes_event_id) lines.push(`resumes event ${event.resumes_event_id}`);
  if (event.retry_of) lines.push(`runs again event ${event.retry_of}`);
  if (event.checkpoint_id) lines.push(`checkpoint ${event.checkpoint_id}`);
  return lines.join("\n");
}

/**
 * What an event is and what it cost: status, actor, times, tokens, wall time, cost, what it runs again or
 * resumes, and its failure. The inspect dialog and the run's page show the same facts.
 */
export function EventFacts({
  data,
  inspectHref,
}: {
  data: FleetEventView;
  /** Where an event this one names (runs again, resumes) opens. */
  inspectHref: (eventId: string) => string;
}) {
  return (
    <>
      <dl className="facts">
        <Fact term="Status">
          <StatusBadge status={data.status} variants={eventStatusVariants} />
        </Fact>
        <Fact term="Actor">
          <EntityName principal={data.actor} workspaceId={data.workspace_id} fleetId={data.fleet_id} />
        </Fact>
        <Fact term="Created">
          <RelativeTime value={data.created_at} />
        </Fact>
        <Fact term="Updated">
          <RelativeTime value={data.updated_at} />
        </Fact>
        <Fact term="Tokens">{data.tokens === undefined ? none : formatCount(data.tokens)}</Fact>
        <Fact term="Wall time">{data.wall_ms === undefined ? none : formatDuration(data.wall_ms)}</Fact>
        <Fact term="Cost">{data.cost_nanos === undefined ? none : formatCost(data.cost_nanos)}</Fact>
        {data.retry_of ? (
          <Fact term="Runs again">
            <Link href={inspectHref(data.retry_of)} scroll={false}>
              event {data.retry_of.slice(0, 8)}…
            </Link>
          </Fact>
        ) : null}
        {data.resumes_event_id ? (
          <Fact term="Resumes">
            <Link href={inspectHref(data.resumes_event_id)} scroll={false}>
              event {data.resumes_event_id.slice(0, 8)}…
            </Link>
          </Fact>
        ) : null}
      </dl>
      {data.failure_label || data.failure_detail ? (
        <Callout tone="danger">
          <p>
            <strong>{data.failure_label ?? "Failed"}</strong>
            {data.failure_detail ? <>: {data.failure_detail}</> : null}
          </p>
        </Callout>
      ) : null}
    </>
  );
}

/** What came in (the request, pretty-printed) and what the fleet answered, with the diagnostic text. */
export function EventBodies({ data }: { data: FleetEventView }) {
  return (
    <>
      <JsonViewer label="Request" text={data.request_json} />
      {data.response_text !== undefined ? (
        <JsonViewer label="Response" text={data.response_text} notJsonNote={null} />
      ) : (
        <p className="muted event-detail__pending">
          {data.status === "received"
            ? "No response yet: the event waits for a runner to take it."
            : "The event has no response text."}
        </p>
      )}
      <details className="diagnostic">
        <summary>Diagnostic text</summary>
        <pre>{diagnosticOf(data)}</pre>
      </details>
    </>
  );
}
