"use client";

import { BookIcon, GuardedButton, PlusIcon } from "@fleet/ui";
import { useQuery } from "@tanstack/react-query";
import { type ReactNode, useState } from "react";
import { Link } from "../../components/link.tsx";
import { PageHeader } from "../../components/page-header.tsx";
import { WorkspaceCard, WorkspaceListBody } from "../../components/workspace-list.tsx";
import { useLacking } from "../../lib/access.ts";
import { usePageActions } from "../../lib/commands.tsx";
import { useShortcuts } from "../../lib/shortcuts.tsx";
import { useTRPC } from "../../lib/trpc.ts";
import { entryHref, libraryHref } from "../../lib/urls.ts";
import { type ListPosition, useWorkspacePage } from "../../lib/use-workspace.ts";
import { AddEntryDialog } from "./add-entry-dialog.tsx";
import { LibraryTable } from "./library-table.tsx";

export function LibraryView(position: ListPosition) {
  const { startingAfter } = position;
  const trpc = useTRPC();
  const page = useWorkspacePage(position, libraryHref);
  const { workspace, chosenId, href } = page;
  const list = useQuery(
    trpc.fleetLibraries.list.queryOptions(page.input, { placeholderData: page.placeholderData }),
  );
  const [adding, setAdding] = useState(false);
  const [done, setDone] = useState<ReactNode>(null);

  const openAdd = () => {
    setDone(null);
    setAdding(true);
  };
  const cannotAdd = useLacking("library:write");
  const ready = workspace !== undefined && list.data !== undefined;
  const canAdd = ready && cannotAdd === null;
  usePageActions(
    canAdd
      ? [{ label: "Add a definition to the library", keywords: "new", shortcut: "a", run: openAdd }]
      : [],
  );
  useShortcuts(
    "Library",
    canAdd ? [{ key: "a", description: "Add a definition to the library", run: openAdd }] : [],
  );

  const addButton = (variant: "primary" | "secondary") => (
    <GuardedButton
      variant={variant}
      icon={<PlusIcon />}
      aria-keyshortcuts={cannotAdd ? undefined : "a"}
      unavailable={cannotAdd}
      onClick={openAdd}
    >
      Add to library
    </GuardedButton>
  );

  return (
    <div className="page page--fluid">
      <PageHeader
        title="Library"
        description="Fleet definitions a workspace can install: the platform’s, offered to every workspace, and your tenant’s own, added here."
        actions={ready ? addButton("primary") : null}
      />
      <WorkspaceCard
        headingId="library-heading"
        heading="Library entries"
        choice={page}
        hrefFor={href}
        done={done}
      >
        <WorkspaceListBody
          choice={page}
          list={list}
          loading="Loading the library…"
          firstPageHref={startingAfter && chosenId ? href(chosenId) : undefined}
        >
          {(data, workspace) =>
            data.items.length === 0 ? (
              <div className="empty-state">
                <span className="empty-state__icon" aria-hidden="true">
                  <BookIcon />
                </span>
                <p className="empty-state__title">
                  {startingAfter ? "No more entries" : "The library is empty"}
                </p>
                <p className="empty-state__text">
                  {startingAfter
                    ? "This page is past the last entry."
                    : "Add a fleet definition: a Markdown file whose front matter names the fleet, its triggers and the credentials it needs."}
                </p>
                {startingAfter ? null : addButton("secondary")}
              </div>
            ) : (
              <LibraryTable
                entries={data.items}
                workspace={workspace}
                busy={list.isPlaceholderData}
                pager={{
                  label: "Pages of library entries",
                  summary: `${data.items.length} shown · ${data.total} ${data.total === 1 ? "entry" : "entries"} for ${workspace.name}`,
                  firstHref: startingAfter ? href(workspace.id) : undefined,
                  nextHref: data.next_cursor ? href(workspace.id, data.next_cursor) : undefined,
                  link: Link,
                }}
              />
            )
          }
        </WorkspaceListBody>
      </WorkspaceCard>
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
