"use client";

import { Button, CheckIcon, GridIcon, PlusIcon, ProblemAlert } from "@fleet/ui";
import { keepPreviousData, skipToken, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { type ReactNode, useState } from "react";
import { PageHeader } from "../../components/page-header.tsx";
import { problemOf, statusOf } from "../../lib/problem.ts";
import { useShortcuts } from "../../lib/shortcuts.tsx";
import { type ApiError, useTRPC } from "../../lib/trpc.ts";
import { useWorkspaceChoice } from "../../lib/use-workspace.ts";
import { WorkspacePicker } from "../secrets/workspace-picker.tsx";
import { type ConfirmedAction, FleetActionDialogs, statusChange } from "./fleet-action-dialogs.tsx";
import type { FleetActionHandlers } from "./fleet-row-actions.tsx";
import { FleetsTable } from "./fleets-table.tsx";
import { InstallFleetDialog } from "./install-fleet-dialog.tsx";
import { fleetHref, fleetsHref } from "./urls.ts";
import { useFleetStatusChange, usePendingFleetIds } from "./use-fleet-status.ts";

/** A refusal (4xx) answers the same on retry; an outage may not. */
const retryable = (error: ApiError) => (statusOf(error) ?? 500) >= 500;

export interface FleetsPosition {
  workspaceId: string | undefined;
  startingAfter: string | undefined;
  limit: number | undefined;
}

export function FleetsView({ workspaceId, startingAfter, limit }: FleetsPosition) {
  const trpc = useTRPC();
  const router = useRouter();
  const href = (id: string, after?: string) => {
    const base = fleetsHref(id, after);
    return limit ? `${base}&limit=${limit}` : base;
  };
  const choice = useWorkspaceChoice(workspaceId, (id) => href(id));
  const { workspace, chosenId } = choice;
  const list = useQuery(
    trpc.fleets.list.queryOptions(
      chosenId
        ? {
            workspace_id: chosenId,
            ...(startingAfter ? { starting_after: startingAfter } : {}),
            ...(limit ? { limit } : {}),
          }
        : skipToken,
      {
        // The previous page stays while the next loads, but never a previous workspace's rows.
        placeholderData: (previous, query) =>
          (query?.queryKey[1] as { input?: { workspace_id?: string } } | undefined)?.input?.workspace_id ===
          chosenId
            ? keepPreviousData(previous)
            : undefined,
      },
    ),
  );
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
  const canInstall = workspace !== undefined && list.data !== undefined;
  useShortcuts("Fleets", canInstall ? [{ key: "i", description: "Install a fleet", run: openInstall }] : []);

  const installButton = (variant: "primary" | "secondary") => (
    <Button variant={variant} icon={<PlusIcon />} aria-keyshortcuts="i" onClick={openInstall}>
      Install fleet
    </Button>
  );

  let body: ReactNode;
  if (choice.workspaces.error) {
    body = (
      <div className="card__body">
        <ProblemAlert problem={problemOf(choice.workspaces.error)} />
      </div>
    );
  } else if (choice.items !== undefined && choice.items.length === 0) {
    body = (
      <div className="empty-state">
        <p className="empty-state__title">No workspaces in this tenant</p>
        <p className="empty-state__text">Fleets run in a workspace. Create one through the API first.</p>
      </div>
    );
  } else if (list.error && !list.isPlaceholderData) {
    // A failed list shows why, never an empty table that looks like "no fleets".
    body = (
      <div className="card__body">
        <ProblemAlert problem={problemOf(list.error)}>
          {retryable(list.error) ? (
            <Button size="sm" pending={list.isFetching} onClick={() => list.refetch()}>
              Try again
            </Button>
          ) : null}
          {startingAfter && chosenId ? (
            <Link className="ui-button ui-button--secondary ui-button--sm" href={href(chosenId)}>
              Back to the first page
            </Link>
          ) : choice.first && choice.first.id !== chosenId ? (
            <Link className="ui-button ui-button--secondary ui-button--sm" href={href(choice.first.id)}>
              Show the workspace {choice.first.name}
            </Link>
          ) : null}
        </ProblemAlert>
      </div>
    );
  } else if (list.data === undefined || workspace === undefined) {
    body = (
      <p className="card__body muted" role="status">
        Loading fleets…
      </p>
    );
  } else if (list.data.items.length === 0) {
    body = (
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
    );
  } else {
    const page = list.data;
    body = (
      <FleetsTable
        fleets={page.items}
        workspace={workspace}
        pendingIds={pendingIds}
        handlers={handlers}
        busy={list.isPlaceholderData}
        pager={{
          label: "Pages of fleets",
          summary: `${page.items.length} shown · ${page.total} ${page.total === 1 ? "fleet" : "fleets"} in ${workspace.name}`,
          firstHref: startingAfter ? href(workspace.id) : undefined,
          nextHref: page.next_cursor ? href(workspace.id, page.next_cursor) : undefined,
          link: Link,
        }}
      />
    );
  }

  return (
    <div className="page page--fluid">
      <PageHeader
        title="Fleets"
        description="Each fleet runs one library definition in a workspace: it answers messages and wakes on its triggers. Pause or stop a fleet to hold its work; kill it to end it for good."
        actions={canInstall ? installButton("primary") : null}
      />
      {move.error ? (
        <ProblemAlert problem={problemOf(move.error)}>
          <Button size="sm" onClick={() => move.reset()}>
            Dismiss
          </Button>
        </ProblemAlert>
      ) : null}
      <section className="card" aria-labelledby="fleets-heading">
        <h2 id="fleets-heading" className="ui-visually-hidden">
          Fleets
        </h2>
        <div className="card__toolbar">
          <WorkspacePicker
            workspaces={choice.items}
            value={chosenId}
            more={choice.more}
            onChange={(id) => router.push(href(id))}
          />
          <div className="card__toolbar-end">
            <p className="toolbar-status" role="status">
              {done ? (
                <>
                  <CheckIcon />
                  {done}
                </>
              ) : null}
            </p>
          </div>
        </div>
        {body}
      </section>
      {workspace ? (
        <InstallFleetDialog
          open={installing}
          workspace={workspace}
          onClose={() => setInstalling(false)}
          onInstalled={(fleet) =>
            setDone(
              <>
                Installed {fleet.name}.{" "}
                <Link
                  href={fleetHref({
                    workspaceId: fleet.workspace_id,
                    fleetId: fleet.fleet_id,
                    tab: "events",
                  })}
                >
                  Open {fleet.name}
                </Link>
              </>,
            )
          }
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
