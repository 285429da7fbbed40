"use client";

import { GridIcon, GuardedButton, PlusIcon } from "@fleet/ui";
import { skipToken, useQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { type ReactNode, useState } from "react";
import { Link } from "../../components/link.tsx";
import { PageHeader } from "../../components/page-header.tsx";
import { ActionProblem } from "../../components/query-problem.tsx";
import { WorkspaceCard, WorkspaceListBody } from "../../components/workspace-list.tsx";
import { useLacking } from "../../lib/access.ts";
import { usePageActions } from "../../lib/commands.tsx";
import { useShortcuts } from "../../lib/shortcuts.tsx";
import { useTRPC } from "../../lib/trpc.ts";
import { type FleetFilter, fleetHref, fleetsHref } from "../../lib/urls.ts";
import { type ListPosition, useWorkspacePage } from "../../lib/use-workspace.ts";
import { type ConfirmedAction, FleetActionDialogs, statusChange } from "./fleet-action-dialogs.tsx";
import { FleetFilters } from "./fleet-filters.tsx";
import type { FleetActionHandlers } from "./fleet-row-actions.tsx";
import { FleetsTable } from "./fleets-table.tsx";
import { InstallFleetDialog } from "./install-fleet-dialog.tsx";
import { useFleetStatusChange, usePendingFleetIds } from "./use-fleet-status.ts";

export function FleetsView({ filter, ...position }: ListPosition & { filter: FleetFilter }) {
  const { startingAfter } = position;
  const trpc = useTRPC();
  const router = useRouter();
  const filtered = Boolean(filter.status || filter.name);
  const page = useWorkspacePage(position, (id, after) => fleetsHref(id, after, filter));
  const { workspace, chosenId, href } = page;
  const input =
    page.input === skipToken
      ? skipToken
      : {
          ...page.input,
          ...(filter.status ? { status: filter.status } : {}),
          ...(filter.name ? { name: filter.name } : {}),
        };
  // The previous page stays while the next loads, but never a previous workspace's rows.
  const list = useQuery(trpc.fleets.list.queryOptions(input, { placeholderData: page.placeholderData }));
  const move = useFleetStatusChange();
  const pendingIds = usePendingFleetIds();
  const [confirming, setConfirming] = useState<ConfirmedAction>(null);
  const [installing, setInstalling] = useState(false);
  const [done, setDone] = useState<ReactNode>(null);

  const handlers: FleetActionHandlers = {
    onMove: (fleet, status) => {
      setDone(null);
      move.change(statusChange(fleet, status));
    },
    onConfirm: (pending) => {
      setDone(null);
      setConfirming(pending);
    },
  };

  const openInstall = () => {
    setDone(null);
    setInstalling(true);
  };
  const cannotInstall = useLacking("fleet:write");
  const ready = workspace !== undefined && list.data !== undefined;
  const canInstall = ready && cannotInstall === null;
  useShortcuts("Fleets", canInstall ? [{ key: "i", description: "Install a fleet", run: openInstall }] : []);
  usePageActions(
    canInstall ? [{ label: "Install fleet", keywords: "new create", shortcut: "i", run: openInstall }] : [],
  );

  const installButton = (variant: "primary" | "secondary") => (
    <GuardedButton
      variant={variant}
      icon={<PlusIcon />}
      aria-keyshortcuts={cannotInstall ? undefined : "i"}
      unavailable={cannotInstall}
      onClick={openInstall}
    >
      Install fleet
    </GuardedButton>
  );

  const body = (
    <WorkspaceListBody
      choice={page}
      list={list}
      loading="Loading fleets…"
      noWorkspaces="Fleets run in a workspace. Create one through the API first."
      firstPageHref={startingAfter && chosenId ? href(chosenId) : undefined}
      workspaceHref={href}
    >
      {(data, workspace) =>
        data.items.length === 0 && filtered && !startingAfter ? (
          <div className="empty-state">
            <p className="empty-state__title">No fleets match the filters</p>
            <p className="empty-state__text">Widen the filters or clear them to see every fleet.</p>
            <Link className="ui-button ui-button--secondary" href={fleetsHref(workspace.id)}>
              Clear filters
            </Link>
          </div>
        ) : data.items.length === 0 ? (
          <div className="empty-state">
            <span className="empty-state__icon" aria-hidden="true">
              <GridIcon />
            </span>
            <p className="empty-state__title">
              {startingAfter ? "No more fleets" : `No fleets in ${workspace.name} yet`}
            </p>
            <p className="empty-state__text">
              {startingAfter
                ? "This page is past the last fleet."
                : "Install a fleet from the library: it runs the definition’s instructions on messages and on its triggers."}
            </p>
            {startingAfter ? (
              <Link className="ui-button ui-button--secondary" href={href(workspace.id)}>
                Back to the first page
              </Link>
            ) : (
              installButton("secondary")
            )}
          </div>
        ) : (
          <FleetsTable
            fleets={data.items}
            workspace={workspace}
            pendingIds={pendingIds}
            handlers={handlers}
            busy={list.isPlaceholderData}
            pager={{
              label: "Pages of fleets",
              summary: `${data.items.length} shown · ${data.total} ${data.total === 1 ? "fleet" : "fleets"} ${filtered ? (data.total === 1 ? "matches in" : "match in") : "in"} ${workspace.name}`,
              firstHref: startingAfter ? href(workspace.id) : undefined,
              nextHref: data.next_cursor ? href(workspace.id, data.next_cursor) : undefined,
              link: Link,
            }}
          />
        )
      }
    </WorkspaceListBody>
  );

  return (
    <div className="page page--fluid">
      <PageHeader
        title="Fleets"
        description="Each fleet runs one library definition in a workspace: it answers messages and wakes on its triggers. Pause or stop a fleet to hold its work; kill it to end it for good."
        actions={ready ? installButton("primary") : null}
      />
      <ActionProblem action={move} />
      <WorkspaceCard headingId="fleets-heading" heading="Fleets" choice={page} hrefFor={href} done={done}>
        {chosenId ? (
          <FleetFilters
            values={filter}
            clearHref={filtered ? fleetsHref(chosenId) : undefined}
            onApply={(values) => router.push(fleetsHref(chosenId, undefined, values))}
          />
        ) : null}
        {body}
      </WorkspaceCard>
      {workspace ? (
        <InstallFleetDialog
          open={installing}
          workspace={workspace}
          onClose={() => setInstalling(false)}
          onInstalled={(fleet) => {
            // The new fleet opens; the notice covers the moment until its page has loaded.
            const opened = fleetHref({
              workspaceId: fleet.workspace_id,
              fleetId: fleet.fleet_id,
              tab: "events",
            });
            setDone(
              <>
                Installed {fleet.name}. <Link href={opened}>Open {fleet.name}</Link>
              </>,
            );
            router.push(opened);
          }}
        />
      ) : null}
      <FleetActionDialogs
        pending={confirming}
        onClose={() => setConfirming(null)}
        onChange={(change) => move.change(change)}
        onDeleted={(fleet) => setDone(`Deleted ${fleet.name}.`)}
      />
    </div>
  );
}
