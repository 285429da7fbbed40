"use client";

import { Badge, formatUtc, RelativeTime, StatusBadge } from "@fleet/ui";
import { Fragment, useState } from "react";
import { EntityName } from "../../components/entity-name.tsx";
import { Link } from "../../components/link.tsx";
import { formatCost, formatCount } from "../../lib/format.ts";
import { usePrincipalWords } from "../../lib/names.ts";
import { runHref } from "../../lib/urls.ts";
import { collapseFailures } from "./collapse.ts";
import { eventStatusVariants, eventTypeLabels, type FleetEventItem } from "./event-labels.ts";
import { formatDuration } from "./format.ts";
import "../../styles/inline.css";
import "./event-failure.css";
import "./events-table.css";

export interface EventsTableProps {
  events: FleetEventItem[];
  fleetName: string;
  /** The URL that opens an event in the inspect dialog. */
  inspectHref: (eventId: string) => string;
  busy: boolean;
}

const dash = (
  <>
    <span className="muted" aria-hidden="true">
      —
    </span>
    <span className="ui-visually-hidden">none</span>
  </>
);

/**
 * The fleet's events, newest first, one row each; identical failures in a row collapse into the newest
 * with a count and can be expanded. Each row's type links to the run's page; Inspect opens the event in a
 * dialog over the list (its id goes in the URL).
 */
export function EventsTable({ events, fleetName, inspectHref, busy }: EventsTableProps) {
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const words = usePrincipalWords();
  const groups = collapseFailures(events);
  const toggle = (id: string) =>
    setExpanded((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  const row = (event: FleetEventItem, repeat: { count: number; open: boolean } | null, isRepeat: boolean) => (
    <tr
      key={event.event_id}
      data-event-id={event.event_id}
      data-status={event.status}
      data-repeat={isRepeat || undefined}
      className={isRepeat ? "event-row event-row--repeat" : "event-row"}
    >
      <td>
        <RelativeTime value={event.created_at} />
      </td>
      <th scope="row" className="ui-table__row-header">
        <Link
          href={runHref({
            workspaceId: event.workspace_id,
            fleetId: event.fleet_id,
            eventId: event.event_id,
          })}
        >
          {eventTypeLabels[event.event_type]}
          <span className="ui-visually-hidden"> run {event.event_id}</span>
        </Link>
      </th>
      <td className="event-actor">
        <EntityName principal={event.actor} workspaceId={event.workspace_id} fleetId={event.fleet_id} />
      </td>
      <td>
        <span className="event-status">
          <StatusBadge status={event.status} variants={eventStatusVariants} />
          {event.failure_label ? <span className="event-failure">{event.failure_label}</span> : null}
          {repeat ? (
            <>
              <Badge tone="danger">×{repeat.count}</Badge>
              <button
                type="button"
                className="link-button"
                aria-expanded={repeat.open}
                onClick={() => toggle(event.event_id)}
              >
                {repeat.open ? "Hide repeats" : `Show ${repeat.count - 1} more`}
                <span className="ui-visually-hidden"> identical failures</span>
              </button>
            </>
          ) : null}
        </span>
      </td>
      <td data-align="end" className="numeric">
        {event.tokens === undefined ? dash : formatCount(event.tokens)}
      </td>
      <td data-align="end" className="numeric">
        {event.wall_ms === undefined ? dash : formatDuration(event.wall_ms)}
      </td>
      <td data-align="end" className="numeric">
        {event.cost_nanos === undefined ? dash : formatCost(event.cost_nanos)}
      </td>
      <td data-align="end">
        <Link
          className="ui-button ui-button--secondary ui-button--sm"
          href={inspectHref(event.event_id)}
          scroll={false}
          aria-label={`Inspect ${eventTypeLabels[event.event_type].toLowerCase()} event from ${words(event.actor) ?? event.actor} at ${formatUtc(event.created_at)}`}
        >
          Inspect
        </Link>
      </td>
    </tr>
  );

  return (
    <div className="ui-table-scroll">
      <table className="ui-table events-table" aria-busy={busy || undefined}>
        <caption className="ui-visually-hidden">Events of the fleet {fleetName}, newest first</caption>
        <colgroup>
          <col className="ui-table__col-time" />
          <col className="events-table__col-type" />
          <col />
          <col />
          <col className="ui-table__col-number" />
          <col className="ui-table__col-number" />
          <col className="ui-table__col-number" />
          <col className="ui-table__col-actions" />
        </colgroup>
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Type</th>
            <th scope="col">Actor</th>
            <th scope="col">Status</th>
            <th scope="col" data-align="end">
              Tokens
            </th>
            <th scope="col" data-align="end">
              Wall time
            </th>
            <th scope="col" data-align="end">
              Cost
            </th>
            <th scope="col">
              <span className="ui-visually-hidden">Inspect</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {groups.map(({ head, repeats }) => {
            const open = expanded.has(head.event_id);
            return (
              <Fragment key={head.event_id}>
                {row(head, repeats.length > 0 ? { count: repeats.length + 1, open } : null, false)}
                {open ? repeats.map((event) => row(event, null, true)) : null}
              </Fragment>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
