"use client";

import { ProblemAlert, RelativeTime, Skeleton, StatusBadge, Tabs } from "@fleet/ui";
import { usePrefetchQuery, useQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Link } from "../../components/link.tsx";
import { ActionProblem, QueryProblem } from "../../components/query-problem.tsx";
import { usePageActions } from "../../lib/commands.tsx";
import { fleetStatusVariants } from "../../lib/fleet-status.ts";
import { formatCost, formatCount } from "../../lib/format.ts";
import { useShortcuts } from "../../lib/shortcuts.tsx";
import { useTRPC } from "../../lib/trpc.ts";
import { type FleetPosition, type FleetTab, fleetHref, fleetsHref } from "../../lib/urls.ts";
import { BudgetButton } from "../billing/budget-dialog.tsx";
import { Conversation } from "../fleet-events/conversation.tsx";
import { EventsPanel } from "../fleet-events/events-panel.tsx";
import { useLiveRuns } from "../fleet-events/use-live-runs.ts";
import { GrantsPanel } from "../integration-grants/grants-panel.tsx";
import { MemoriesPanel } from "../memories/memories-panel.tsx";
import { SchedulesPanel } from "../schedules/schedules-panel.tsx";
import { type ConfirmedAction, FleetActionDialogs, statusChange } from "./fleet-action-dialogs.tsx";
import { FleetDefinition } from "./fleet-definition.tsx";
import { FleetHeaderActions } from "./fleet-header-actions.tsx";
import { MessageBox } from "./message-box.tsx";
import { useFleetStatusChange, usePendingFleetIds } from "./use-fleet-status.ts";

const FLEET_POLL_MS = 15_000;

const tabs = [
  { value: "events", label: "Events" },
  { value: "memories", label: "Memories" },
  { value: "schedules", label: "Schedules" },
  { value: "grants", label: "Grants" },
] as const;

export function FleetView({
  workspaceId,
  position: partial,
}: {
  workspaceId: string | undefined;
  position: Omit<FleetPosition, "workspaceId">;
}) {
  if (workspaceId === undefined) {
    return (
      <div className="page">
        <ProblemAlert
          problem={{
            title: "No workspace in the address",
            detail:
              "A fleet page needs its workspace (?workspace=<id>). Open the fleet from the Fleets list.",
          }}
        >
          <Link className="ui-button ui-button--secondary ui-button--sm" href={fleetsHref()}>
            Go to Fleets
          </Link>
        </ProblemAlert>
      </div>
    );
  }
  return <FleetPage position={{ ...partial, workspaceId }} />;
}

function FleetPage({ position }: { position: FleetPosition }) {
  const trpc = useTRPC();
  const router = useRouter();
  const move = useFleetStatusChange();
  const pending = usePendingFleetIds();
  const query = useQuery(
    trpc.fleets.get.queryOptions(
      { workspace_id: position.workspaceId, fleet_id: position.fleetId },
      // Runners move the counters and other people the status: keep the header roughly current, but not
      // while a move of this page's is on its way (a poll would briefly undo its optimistic status).
      { refetchInterval: pending.has(position.fleetId) ? false : FLEET_POLL_MS },
    ),
  );
  // The conversation and the events tab ask for the events only once the fleet is shown: asked here, beside
  // the fleet, the page has its data after one round trip instead of two (issue 17 §5's figures).
  usePrefetchQuery(
    trpc.fleetEvents.list.queryOptions({ workspace_id: position.workspaceId, fleet_id: position.fleetId }),
  );
  const [confirming, setConfirming] = useState<ConfirmedAction>(null);
  const [latestSent, setLatestSent] = useState<string | null>(null);
  const { runs, stream } = useLiveRuns(position.workspaceId, position.fleetId);
  const back = fleetsHref(position.workspaceId);
  const showTab = (tab: FleetTab) => router.replace(fleetHref({ ...position, tab }), { scroll: false });
  useShortcuts("Fleet", [
    {
      key: "m",
      description: "Write a message to the fleet",
      run: () => document.querySelector<HTMLTextAreaElement>(".message-box__input")?.focus(),
    },
    { key: "[", description: "Show the events", run: () => showTab("events") },
    { key: "]", description: "Show the memories", run: () => showTab("memories") },
    { key: "s", description: "Show the schedules", run: () => showTab("schedules") },
    // Not `g`: that starts the go-to keys (`g f`) everywhere.
    { key: "i", description: "Show the integration grants", run: () => showTab("grants") },
  ]);
  usePageActions([
    {
      label: "Write a message to the fleet",
      keywords: "send chat",
      shortcut: "m",
      run: () => document.querySelector<HTMLTextAreaElement>(".message-box__input")?.focus(),
    },
  ]);

  const fleet = query.data;
  if (query.error && fleet === undefined) {
    return (
      <div className="page">
        <nav aria-label="Breadcrumb" className="breadcrumb">
          <Link href={back}>Fleets</Link>
        </nav>
        <QueryProblem query={query}>
          <Link className="ui-button ui-button--secondary ui-button--sm" href={back}>
            Back to Fleets
          </Link>
        </QueryProblem>
      </div>
    );
  }
  if (fleet === undefined) {
    return (
      <div className="page">
        <Skeleton label="Loading the fleet…" shape="page" />
      </div>
    );
  }

  return (
    <div className="page page--fluid">
      <nav aria-label="Breadcrumb" className="breadcrumb">
        <ol>
          <li>
            <Link href={back}>Fleets</Link>
          </li>
          <li aria-current="page">{fleet.name}</li>
        </ol>
      </nav>
      <header className="page-header fleet-header">
        <div>
          <div className="fleet-header__title">
            <h1 className="page-header__title">{fleet.name}</h1>
            <StatusBadge
              status={fleet.status}
              variants={fleetStatusVariants}
              pending={pending.has(fleet.fleet_id)}
            />
          </div>
          <p className="fleet-header__meta">
            <span>
              Installed <RelativeTime value={fleet.created_at} />
            </span>
            <span>
              Updated <RelativeTime value={fleet.updated_at} />
            </span>
            <span>{formatCount(fleet.events_processed)} events processed</span>
            <span>{formatCost(fleet.budget_used_nanos)} spent</span>
          </p>
        </div>
        <div className="page-header__actions">
          <BudgetButton fleet={fleet} />
          <FleetHeaderActions
            fleet={fleet}
            onMove={(ref, status) => move.change(statusChange(ref, status))}
            onConfirm={setConfirming}
          />
        </div>
      </header>
      <ActionProblem action={move} />
      <div className="fleet-grid">
        <MessageBox fleet={fleet} onSent={setLatestSent} />
        <FleetDefinition fleet={fleet} />
      </div>
      <Conversation
        fleet={fleet}
        runs={runs}
        stream={stream}
        inspectHref={(eventId) => fleetHref({ ...position, tab: "events", event: eventId })}
      />
      <section className="card fleet-activity" aria-label="Activity">
        <Tabs<FleetTab> label="Activity" tabs={tabs} value={position.tab} onChange={showTab}>
          {position.tab === "events" ? (
            <EventsPanel fleet={fleet} position={position} latestSent={latestSent} stream={stream} />
          ) : position.tab === "memories" ? (
            <MemoriesPanel fleet={fleet} position={position} />
          ) : position.tab === "grants" ? (
            <GrantsPanel fleet={fleet} position={position} />
          ) : (
            <SchedulesPanel fleet={fleet} />
          )}
        </Tabs>
      </section>
      <FleetActionDialogs
        pending={confirming}
        onClose={() => setConfirming(null)}
        onChange={(change) => move.change(change)}
        onDeleted={() => router.push(back)}
      />
    </div>
  );
}
