"use client";

import { Button, CopyButton, ProblemAlert, type ProblemView, RelativeTime, Skeleton } from "@fleet/ui";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { DoneStatus } from "../../components/done-status.tsx";
import { Link } from "../../components/link.tsx";
import { ActionProblem } from "../../components/query-problem.tsx";
import { formatCount } from "../../lib/format.ts";
import { problemOf } from "../../lib/problem.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { type RunnerPosition, runnerHref, runnersHref } from "../../lib/urls.ts";
import { HistoryPanel } from "./history-panel.tsx";
import { LeasesPanel } from "./leases-panel.tsx";
import {
  OperatorAccessCard,
  OperatorIdentity,
  type OperatorSession,
  refusesOperator,
} from "./operator-access.tsx";
import { PolicyDialog } from "./policy-dialog.tsx";
import { RunnerActions } from "./runner-actions.tsx";
import { DegradedBadge, RunnerState } from "./runner-badges.tsx";
import { SandboxCard } from "./sandbox-card.tsx";
import { lifetimeCounts, type RunnerView } from "./status.ts";
import { useRunnerUpdate } from "./use-runner-update.ts";
import "../../styles/card-parts.css";
import "../../styles/detail-page.css";
import "../../styles/inline.css";
import "./runner-detail.css";

const RUNNER_POLL_MS = 10_000;

function Breadcrumb({ host }: { host?: string }) {
  return (
    <nav aria-label="Breadcrumb" className="breadcrumb">
      <ol>
        <li>
          <Link href={runnersHref()}>Runners</Link>
        </li>
        {host ? <li aria-current="page">{host}</li> : null}
      </ol>
    </nav>
  );
}

export function RunnerDetailView({
  operator,
  accessProblem,
  position,
}: {
  operator: OperatorSession | null;
  accessProblem: ProblemView | null;
  position: RunnerPosition;
}) {
  if (operator === null) {
    return (
      <div className="page page--fluid">
        <Breadcrumb />
        <OperatorAccessCard problem={accessProblem} refused={false} returnTo={runnerHref(position)} />
      </div>
    );
  }
  return <RunnerPage operator={operator} accessProblem={accessProblem} position={position} />;
}

function RunnerPage({
  operator,
  accessProblem,
  position,
}: {
  operator: OperatorSession;
  accessProblem: ProblemView | null;
  position: RunnerPosition;
}) {
  const trpc = useTRPC();
  const query = useQuery(
    trpc.runners.get.queryOptions({ id: position.runnerId }, { refetchInterval: RUNNER_POLL_MS }),
  );
  const update = useRunnerUpdate(position.runnerId);
  const [editing, setEditing] = useState(false);
  const [done, setDone] = useState<string | null>(null);

  if (refusesOperator(query.error)) {
    return (
      <div className="page page--fluid">
        <Breadcrumb />
        <OperatorAccessCard
          problem={accessProblem ?? problemOf(query.error)}
          refused
          returnTo={runnerHref(position)}
        />
      </div>
    );
  }
  const runner = query.data;
  if (runner === undefined) {
    return (
      <div className="page page--fluid">
        <Breadcrumb />
        {query.error ? (
          <ProblemAlert problem={problemOf(query.error)}>
            <Button size="sm" pending={query.isFetching} onClick={() => query.refetch()}>
              Try again
            </Button>
            <Link className="ui-button ui-button--secondary ui-button--sm" href={runnersHref()}>
              Back to Runners
            </Link>
          </ProblemAlert>
        ) : (
          <Skeleton label="Loading the runner…" shape="page" />
        )}
      </div>
    );
  }

  return (
    <div className="page page--fluid">
      <Breadcrumb host={runner.host_id} />
      <header className="page-header fleet-header runner-header">
        <div>
          <div className="fleet-header__title">
            <h1 className="page-header__title">{runner.host_id}</h1>
            <RunnerState runner={runner} />
            <DegradedBadge runner={runner} />
          </div>
          <p className="fleet-header__meta">
            <span className="runner-id">
              Runner <code>{runner.runner_id}</code>
              <CopyButton value={runner.runner_id} label="Copy runner ID" />
            </span>
            <span>
              Enrolled <RelativeTime value={runner.created_at} />
            </span>
            <span>
              Last heartbeat{" "}
              {runner.last_heartbeat_at === null ? (
                "never"
              ) : (
                <RelativeTime value={runner.last_heartbeat_at} />
              )}
            </span>
            {runner.revoked_at !== null ? (
              <span>
                Revoked <RelativeTime value={runner.revoked_at} />
              </span>
            ) : null}
            {runner.labels.length > 0 ? (
              <span>
                Labels{" "}
                {runner.labels.map((label) => (
                  <code key={label} className="chip">
                    {label}
                  </code>
                ))}
              </span>
            ) : null}
          </p>
        </div>
        <div className="page-header__actions">
          <RunnerActions
            runner={runner}
            operator={operator}
            update={update}
            onEditPolicy={() => {
              setDone(null);
              setEditing(true);
            }}
            onDone={setDone}
          />
        </div>
      </header>
      <OperatorIdentity session={operator} />
      <DoneStatus done={done} className="runner-done" />
      {update.error && update.variables?.status !== "revoked" ? <ActionProblem action={update} /> : null}
      <div className="runner-grid">
        <SandboxCard runner={runner} />
        <LifetimeCard runner={runner} />
      </div>
      <LeasesPanel position={position} host={runner.host_id} />
      <HistoryPanel position={position} />
      {editing ? (
        <PolicyDialog runner={runner} open onClose={() => setEditing(false)} onSaved={setDone} />
      ) : null}
    </div>
  );
}

/** What the runner has done since it was enrolled, and what it is doing now. */
function LifetimeCard({ runner }: { runner: RunnerView }) {
  return (
    <section className="card" aria-labelledby="lifetime-heading">
      <header className="card__header">
        <h2 id="lifetime-heading" className="card__title">
          Lifetime
        </h2>
      </header>
      <dl className="counters">
        {lifetimeCounts(runner).map(({ label, value }) => (
          <div
            key={label}
            className="counter"
            data-counter={label.toLowerCase()}
            data-nonzero={value > 0 || undefined}
          >
            <dt>{label}</dt>
            <dd className="numeric">{formatCount(value)}</dd>
          </div>
        ))}
      </dl>
      <p className="counters__now">
        {runner.active_lease_count === 0
          ? "No lease running now."
          : `Running now: ${formatCount(runner.active_lease_count)} ${runner.active_lease_count === 1 ? "lease" : "leases"} for ${formatCount(runner.active_fleet_count)} ${runner.active_fleet_count === 1 ? "fleet" : "fleets"}.`}
      </p>
    </section>
  );
}
