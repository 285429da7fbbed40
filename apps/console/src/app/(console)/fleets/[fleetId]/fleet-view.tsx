"use client";

import { Tabs } from "@fleet/ui";
import { usePrefetchQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { ActionProblem } from "../../../../components/query-problem.tsx";
import { BudgetButton } from "../../../../features/billing/budget-dialog.tsx";
import { Conversation } from "../../../../features/fleet-events/conversation.tsx";
import { EventsPanel } from "../../../../features/fleet-events/events-panel.tsx";
import { useLiveRuns } from "../../../../features/fleet-events/use-live-runs.ts";
import { FleetActionDialogs, statusChange } from "../../../../features/fleets/fleet-action-dialogs.tsx";
import { FleetDefinition } from "../../../../features/fleets/fleet-definition.tsx";
import {
  FleetHeader,
  FleetLoading,
  FleetProblem,
  FleetWithoutWorkspace,
} from "../../../../features/fleets/fleet-header.tsx";
import { FleetHeaderActions } from "../../../../features/fleets/fleet-header-actions.tsx";
import { MessageBox } from "../../../../features/fleets/message-box.tsx";
import { useFleetPage } from "../../../../features/fleets/use-fleet-page.ts";
import { GrantsPanel } from "../../../../features/integration-grants/grants-panel.tsx";
import { MemoriesPanel } from "../../../../features/memories/memories-panel.tsx";
import { SchedulesPanel } from "../../../../features/schedules/schedules-panel.tsx";
import { usePageActions } from "../../../../lib/commands.tsx";
import { useShortcuts } from "../../../../lib/shortcuts.tsx";
import { useTRPC } from "../../../../lib/trpc.ts";
import { type FleetPosition, type FleetTab, fleetHref } from "../../../../lib/urls.ts";
import "../../../../styles/detail-page.css";
import "./fleet-view.css";

const tabs = [
  { value: "events", label: "Events" },
  { value: "memories", label: "Memories" },
  { value: "schedules", label: "Schedules" },
  { value: "grants", label: "Grants" },
] as const;

/**
 * One fleet's page, composed here from the features that show a part of it: the fleet's header and message
 * box (fleets), its budget (billing), the conversation and the events (fleet-events), its memories,
 * schedules and grants, each in its tab.
 */
export function FleetView({
  workspaceId,
  position: partial,
}: {
  workspaceId: string | undefined;
  position: Omit<FleetPosition, "workspaceId">;
}) {
  if (workspaceId === undefined) return <FleetWithoutWorkspace />;
  return <FleetPage position={{ ...partial, workspaceId }} />;
}

function FleetPage({ position }: { position: FleetPosition }) {
  const trpc = useTRPC();
  const router = useRouter();
  const { query, move, pending, confirming, setConfirming, back } = useFleetPage(position);
  // The conversation and the events tab ask for the events only once the fleet is shown: asked here, beside
  // the fleet, the page has its data after one round trip instead of two (issue 17 §5's figures).
  usePrefetchQuery(
    trpc.fleetEvents.list.queryOptions({ workspace_id: position.workspaceId, fleet_id: position.fleetId }),
  );
  const [latestSent, setLatestSent] = useState<string | null>(null);
  const { runs, stream } = useLiveRuns(position.workspaceId, position.fleetId);
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
  if (query.error && fleet === undefined) return <FleetProblem query={query} back={back} />;
  if (fleet === undefined) return <FleetLoading />;

  return (
    <div className="page page--fluid">
      <FleetHeader
        fleet={fleet}
        back={back}
        pending={pending.has(fleet.fleet_id)}
        actions={
          <>
            <BudgetButton fleet={fleet} />
            <FleetHeaderActions
              fleet={fleet}
              onMove={(ref, status) => move.change(statusChange(ref, status))}
              onConfirm={setConfirming}
            />
          </>
        }
      />
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
      <section className="card fleet-records" aria-label="Fleet records">
        <Tabs<FleetTab> label="Fleet records" tabs={tabs} value={position.tab} onChange={showTab}>
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
