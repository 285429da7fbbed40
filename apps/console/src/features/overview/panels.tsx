"use client";

import { OVERVIEW_COUNT_CAP } from "@fleet/contracts/overview/values";
import { Badge, type BadgeTone, RelativeTime } from "@fleet/ui";
import type { ReactNode } from "react";
import { EntityName } from "../../components/entity-name.tsx";
import { Link } from "../../components/link.tsx";
import { formatCost } from "../../lib/format.ts";
import { approvalsHref, billingHref, fleetHref, runHref, runnersHref } from "../../lib/urls.ts";
import { actionLabel } from "../approvals/labels.ts";
import { explainWait, formatSpan, formatTotal, type OverviewData } from "./reasons.ts";
import "./panels.css";

/** One panel: its title with a count, its rows or what it says when there are none, and a way on. */
function Panel({
  id,
  title,
  total,
  tone = "neutral",
  empty,
  more,
  children,
}: {
  id: string;
  title: string;
  total?: number;
  tone?: BadgeTone;
  empty?: string | undefined;
  more?: ReactNode;
  children?: ReactNode;
}) {
  return (
    <section className="card overview-panel" aria-labelledby={`${id}-heading`} data-panel={id}>
      <h2 id={`${id}-heading`} className="overview-panel__title">
        {title}
        {total === undefined ? null : (
          <Badge tone={total > 0 ? tone : "neutral"}>{formatTotal(total, OVERVIEW_COUNT_CAP)}</Badge>
        )}
      </h2>
      <div className="overview-panel__body">
        {empty === undefined ? children : <p className="muted overview-panel__empty">{empty}</p>}
      </div>
      {more ? <div className="overview-panel__more">{more}</div> : null}
    </section>
  );
}

const shownOf = (shown: number, total: number, what: string) =>
  total > shown ? `The ${shown} listed of ${formatTotal(total, OVERVIEW_COUNT_CAP)} ${what}.` : null;

export function PendingApprovalsPanel({ data }: { data: OverviewData }) {
  const { items, total } = data.pending_approvals;
  const workspaceId = data.workspace_id;
  return (
    <Panel
      id="approvals"
      title="Pending approvals"
      total={total}
      tone="warning"
      empty={items.length === 0 ? "No approval is waiting for an answer." : undefined}
      more={
        <Link href={approvalsHref({ workspaceId, status: "pending" })}>
          Open the approvals inbox{total > items.length ? ` (${formatTotal(total, OVERVIEW_COUNT_CAP)})` : ""}
        </Link>
      }
    >
      <ul className="overview-list">
        {items.map((gate) => {
          const left = gate.timeout_at - data.generated_at;
          return (
            <li key={gate.gate_id} className="overview-item">
              <Link
                className="overview-item__title"
                href={approvalsHref({ workspaceId, status: "pending", gate: gate.gate_id })}
              >
                {actionLabel(gate)}
              </Link>
              <p className="overview-item__meta">
                {gate.fleet_name} · {gate.gate_kind} · requested <RelativeTime value={gate.requested_at} />
              </p>
              <p className={`overview-item__meta${left < 10 * 60_000 ? " overview-item__meta--urgent" : ""}`}>
                {left > 0 ? `Times out in ${formatSpan(left)}` : "Timing out now"}
              </p>
            </li>
          );
        })}
      </ul>
    </Panel>
  );
}

export function WaitingEventsPanel({ data }: { data: OverviewData }) {
  const { items, total } = data.waiting_events;
  const workspaceId = data.workspace_id;
  return (
    <Panel
      id="waiting"
      title="Waiting for a runner"
      total={total}
      tone="warning"
      empty={items.length === 0 ? "Nothing is waiting: every event has been taken by a runner." : undefined}
      more={shownOf(items.length, total, "waiting events, oldest first")}
    >
      <ul className="overview-list">
        {items.map((event) => {
          const { why, fix } = explainWait(event, workspaceId);
          return (
            <li key={event.event_id} className="overview-item" data-reason={event.reason}>
              <Link
                className="overview-item__title"
                href={runHref({ workspaceId, fleetId: event.fleet_id, eventId: event.event_id })}
              >
                {event.event_type} event for {event.fleet_name}
              </Link>
              <p className="overview-item__meta">
                Waiting {formatSpan(event.waiting_ms)} · from{" "}
                <EntityName principal={event.actor} workspaceId={workspaceId} fleetId={event.fleet_id} />
              </p>
              <p className="overview-item__why">
                {why} <Link href={fix.href}>{fix.label}</Link>
              </p>
            </li>
          );
        })}
      </ul>
    </Panel>
  );
}

export function RunnersPanel({ data }: { data: OverviewData }) {
  const runners = data.runners;
  const liveness = [
    { key: "online", label: "Online", count: runners.online, tone: "success" },
    { key: "busy", label: "Busy", count: runners.busy, tone: "info" },
    { key: "offline", label: "Offline", count: runners.offline, tone: "danger" },
    { key: "registered", label: "Never seen", count: runners.registered, tone: "neutral" },
  ] as const;
  const states = [
    { label: "Cordoned", count: runners.cordoned, href: runnersHref({ status: "cordoned" }) },
    { label: "Draining", count: runners.draining, href: runnersHref({ status: "draining" }) },
    { label: "Degraded", count: runners.degraded, href: runnersHref({ degraded: true }) },
  ];
  const all = runners.online + runners.busy + runners.offline + runners.registered;
  return (
    <Panel
      id="runners"
      title="Runners"
      total={all}
      tone="info"
      empty={all === 0 ? "No runner is enrolled: no work can run until one is." : undefined}
      more={<Link href={runnersHref()}>Open runners</Link>}
    >
      <ul className="overview-counts" aria-label="Runners by liveness">
        {liveness.map((item) => (
          <li key={item.key}>
            <Link href={runnersHref({ liveness: item.key })} className="overview-count">
              <span className="overview-count__value">{item.count}</span>
              <span className="overview-count__label">
                <Badge tone={item.count > 0 ? item.tone : "neutral"}>{item.label}</Badge>
              </span>
            </Link>
          </li>
        ))}
      </ul>
      <p className="overview-item__meta">
        {states.map((state, index) => (
          <span key={state.label}>
            {index > 0 ? " · " : ""}
            <Link href={state.href}>
              {state.count} {state.label.toLowerCase()}
            </Link>
          </span>
        ))}
      </p>
    </Panel>
  );
}

export function FailedRunsPanel({ data }: { data: OverviewData }) {
  const { items, total } = data.failed_runs;
  const workspaceId = data.workspace_id;
  return (
    <Panel
      id="failed-runs"
      title="Failed runs, last 24 hours"
      total={total}
      tone="danger"
      empty={items.length === 0 ? "No run failed in the last 24 hours." : undefined}
      more={shownOf(items.length, total, "failed runs, newest first")}
    >
      <ul className="overview-list">
        {items.map((run) => (
          <li key={run.event_id} className="overview-item">
            <Link
              className="overview-item__title"
              href={runHref({ workspaceId, fleetId: run.fleet_id, eventId: run.event_id })}
            >
              {run.fleet_name}: {run.failure_label ?? "failed"}
            </Link>
            <p className="overview-item__meta">
              Failed <RelativeTime value={run.failed_at} />
            </p>
            {run.failure_detail ? <p className="overview-item__why">{run.failure_detail}</p> : null}
          </li>
        ))}
      </ul>
    </Panel>
  );
}

export function FailedSchedulesPanel({ data }: { data: OverviewData }) {
  const { items, total } = data.failed_schedules;
  const workspaceId = data.workspace_id;
  return (
    <Panel
      id="schedules"
      title="Schedules not synced"
      total={total}
      tone="danger"
      empty={items.length === 0 ? "Every schedule is with the scheduler." : undefined}
      more={shownOf(items.length, total, "schedules whose sync failed")}
    >
      <ul className="overview-list">
        {items.map((schedule) => (
          <li key={schedule.schedule_id} className="overview-item">
            <Link
              className="overview-item__title"
              href={fleetHref({ workspaceId, fleetId: schedule.fleet_id, tab: "schedules" })}
            >
              {schedule.fleet_name}: {schedule.cron} ({schedule.timezone})
            </Link>
            <p className="overview-item__meta">
              Sync failed <RelativeTime value={schedule.updated_at} />; it is retried, or sync it now from the
              fleet’s schedules.
            </p>
            {schedule.last_error ? <p className="overview-item__why">{schedule.last_error}</p> : null}
          </li>
        ))}
      </ul>
    </Panel>
  );
}

export function SpendPanel({ data }: { data: OverviewData }) {
  const spend = data.spend_today;
  return (
    <Panel
      id="spend"
      title="Spend today"
      more={spend ? <Link href={billingHref({})}>Open billing</Link> : null}
    >
      {spend === null ? (
        <p className="muted overview-panel__empty">
          Your access does not include billing (billing:read); ask an owner for it.
        </p>
      ) : (
        <>
          <p className="overview-figure">{formatCost(spend.cost_nanos)}</p>
          <p className="overview-item__meta">
            {spend.runs} {spend.runs === 1 ? "run" : "runs"} charged in this workspace since 00:00 UTC
          </p>
        </>
      )}
    </Panel>
  );
}
