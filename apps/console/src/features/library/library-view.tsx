"use client";

import { BookIcon, Button, CheckIcon, PlusIcon, ProblemAlert } from "@fleet/ui";
import { keepPreviousData, skipToken, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { type ReactNode, useState } from "react";
import { PageHeader } from "../../components/page-header.tsx";
import { problemOf, statusOf } from "../../lib/problem.ts";
import { useShortcuts } from "../../lib/shortcuts.tsx";
import { useTRPC } from "../../lib/trpc.ts";
import { useWorkspaceChoice } from "../../lib/use-workspace.ts";
import { WorkspacePicker } from "../secrets/workspace-picker.tsx";
import { AddEntryDialog } from "./add-entry-dialog.tsx";
import { entryHref, libraryHref } from "./entries.ts";
import { LibraryTable } from "./library-table.tsx";

export interface LibraryPosition {
  workspaceId: string | undefined;
  startingAfter: string | undefined;
  /** A cursor is bound to the page size it was issued for, so the size travels with it in the URL. */
  limit: number | undefined;
}

export function LibraryView({ workspaceId, startingAfter, limit }: LibraryPosition) {
  const trpc = useTRPC();
  const router = useRouter();
  const href = (id: string, after?: string) => {
    const base = libraryHref(id, after);
    return limit ? `${base}&limit=${limit}` : base;
  };
  const choice = useWorkspaceChoice(workspaceId, (id) => href(id));
  const { workspace, chosenId } = choice;
  const list = useQuery(
    trpc.fleetLibraries.list.queryOptions(
      chosenId
        ? {
            workspace_id: chosenId,
            ...(startingAfter ? { starting_after: startingAfter } : {}),
            ...(limit ? { limit } : {}),
          }
        : skipToken,
      {
        placeholderData: (previous, query) =>
          (query?.queryKey[1] as { input?: { workspace_id?: string } } | undefined)?.input?.workspace_id ===
          chosenId
            ? keepPreviousData(previous)
            : undefined,
      },
    ),
  );
  const [adding, setAdding] = useState(false);
  const [done, setDone] = useState<ReactNode>(null);

  const openAdd = () => {
    setDone(null);
    setAdding(true);
  };
  const canAdd = workspace !== undefined && list.data !== undefined;
  useShortcuts(
    "Library",
    canAdd ? [{ key: "a", description: "Add a definition to the library", run: openAdd }] : [],
  );

  const addButton = (variant: "primary" | "secondary") => (
    <Button variant={variant} icon={<PlusIcon />} aria-keyshortcuts="a" onClick={openAdd}>
      Add to library
    </Button>
  );

  let body: ReactNode;
  if (choice.workspaces.error) {
    body = (
      <div className="card__body">
        <ProblemAlert problem={problemOf(choice.workspaces.error)} />
      </div>
    );
  } else if (list.error && !list.isPlaceholderData) {
    body = (
      <div className="card__body">
        <ProblemAlert problem={problemOf(list.error)}>
          {(statusOf(list.error) ?? 500) >= 500 ? (
            <Button size="sm" pending={list.isFetching} onClick={() => list.refetch()}>
              Try again
            </Button>
          ) : null}
          {startingAfter && chosenId ? (
            <Link className="ui-button ui-button--secondary ui-button--sm" href={href(chosenId)}>
              Back to the first page
            </Link>
          ) : null}
        </ProblemAlert>
      </div>
    );
  } else if (list.data === undefined || workspace === undefined) {
    body = (
      <p className="card__body muted" role="status">
        Loading the library…
      </p>
    );
  } else if (list.data.items.length === 0) {
    body = (
      <div className="empty-state">
        <span className="empty-state__icon" aria-hidden="true">
          <BookIcon />
        </span>
        <p className="empty-state__title">{startingAfter ? "No more entries" : "The library is empty"}</p>
        <p className="empty-state__text">
          {startingAfter
            ? "This page is past the last entry."
            : "Add a fleet definition: a Markdown file whose front matter names the fleet, its triggers and the credentials it needs."}
        </p>
        {startingAfter ? null : addButton("secondary")}
      </div>
    );
  } else {
    const page = list.data;
    body = (
      <LibraryTable
        entries={page.items}
        workspace={workspace}
        busy={list.isPlaceholderData}
        pager={{
          label: "Pages of library entries",
          summary: `${page.items.length} shown · ${page.total} ${page.total === 1 ? "entry" : "entries"} for ${workspace.name}`,
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
        title="Library"
        description="Fleet definitions a workspace can install: the platform’s, offered to every workspace, and your tenant’s own, added here."
        actions={canAdd ? addButton("primary") : null}
      />
      <section className="card" aria-labelledby="library-heading">
        <h2 id="library-heading" className="ui-visually-hidden">
          Library entries
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
        <AddEntryDialog
          open={adding}
          workspace={workspace}
          onClose={() => setAdding(false)}
          onAdded={(entry) =>
            setDone(
              <>
                Added {entry.name}. <Link href={entryHref(workspace.id, entry.id)}>Open {entry.name}</Link>
              </>,
            )
          }
        />
      ) : null}
    </div>
  );
}
