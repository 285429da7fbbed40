"use client";

import { type Column, PagedTable, type PagedTableProps, RelativeTime } from "@fleet/ui";
import { Link } from "../../components/link.tsx";
import { formatCount } from "../../lib/format.ts";
import { runnerHref } from "../../lib/urls.ts";
import { DegradedBadge, RunnerState } from "./runner-badges.tsx";
import { type RunnerItem, tierLabels } from "./status.ts";
import "../../styles/inline.css";
import "../../styles/table-cells.css";
import "./runners-table.css";

const never = (
  <>
    <span className="muted" aria-hidden="true">
      never
    </span>
    <span className="ui-visually-hidden">No heartbeat yet</span>
  </>
);

const columns: Column<RunnerItem>[] = [
  {
    id: "host",
    header: "Host",
    rowHeader: true,
    cell: (runner) => (
      <span className="runner-host">
        <Link className="fleet-link" href={runnerHref({ runnerId: runner.runner_id })}>
          {runner.host_id}
        </Link>
        {runner.labels.length > 0 ? (
          <span className="runner-host__labels">
            {runner.labels.map((label) => (
              <code key={label} className="chip">
                {label}
              </code>
            ))}
          </span>
        ) : null}
      </span>
    ),
  },
  { id: "state", header: "State", cell: (runner) => <RunnerState runner={runner} /> },
  {
    id: "sandbox",
    header: "Sandbox",
    cell: (runner) => (
      <span className="runner-sandbox">
        <span>{runner.assigned_policy ? tierLabels[runner.assigned_policy.sandbox_tier] : "No policy"}</span>
        <DegradedBadge runner={runner} />
      </span>
    ),
  },
  {
    id: "leases",
    header: "Running leases",
    width: "number",
    align: "end",
    cell: (runner) => (
      <span className="numeric">
        {formatCount(runner.active_lease_count)}
        {runner.assigned_policy ? (
          <span className="muted"> of {formatCount(runner.assigned_policy.worker_count)}</span>
        ) : null}
      </span>
    ),
  },
  {
    id: "heartbeat",
    header: "Last heartbeat",
    width: "time",
    cell: (runner) =>
      runner.last_heartbeat_at === null ? never : <RelativeTime value={runner.last_heartbeat_at} />,
  },
  {
    id: "enrolled",
    header: "Enrolled",
    width: "time",
    cell: (runner) => <RelativeTime value={runner.created_at} />,
  },
];

/** One row per runner: who it is, what state it is in and what it is doing, newest first. */
export function RunnersTable({
  runners,
  caption,
  busy,
  pager,
}: {
  runners: RunnerItem[];
  caption: string;
  busy: boolean;
  pager: PagedTableProps<RunnerItem>["pager"];
}) {
  return (
    <PagedTable
      caption={caption}
      columns={columns}
      rows={runners}
      rowKey={(runner) => runner.runner_id}
      rowData={(runner) => ({
        "data-runner-id": runner.runner_id,
        "data-status": runner.status,
        "data-liveness": runner.liveness,
        "data-degraded": runner.degraded ? "true" : undefined,
      })}
      busy={busy}
      pager={pager}
    />
  );
}
