"use client";

import { Button, Skeleton, StatusBadge } from "@fleet/ui";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useId, useState } from "react";
import { Link } from "../../components/link.tsx";
import { QueryProblem } from "../../components/query-problem.tsx";
import { type LibraryItem, visibilityVariants } from "../../lib/library-entries.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { libraryHref } from "../../lib/urls.ts";
import "../../styles/card-parts.css";
import "./library-choice.css";

/** Entries a page of the chooser shows; the dialog stays short enough to see them all. */
const PAGE_SIZE = 8;

/**
 * The library's entries as radio options: name, where it comes from, what it is and the credentials it
 * needs. Pages forward and back inside the dialog, so the choice survives paging.
 */
export function LibraryChoice({
  workspaceId,
  value,
  onChange,
}: {
  workspaceId: string;
  value: LibraryItem | null;
  onChange: (entry: LibraryItem) => void;
}) {
  const trpc = useTRPC();
  const group = useId();
  // The cursors of the pages before this one, so Previous can go back without one of its own.
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const cursor = cursors.at(-1);
  const list = useQuery(
    trpc.fleetLibraries.list.queryOptions(
      { workspace_id: workspaceId, limit: PAGE_SIZE, ...(cursor ? { starting_after: cursor } : {}) },
      { placeholderData: keepPreviousData },
    ),
  );

  if (list.error && !list.isPlaceholderData) {
    return <QueryProblem query={list} retry="always" />;
  }
  if (list.data === undefined) {
    return <Skeleton label="Loading the library…" shape="rows" />;
  }
  if (list.data.items.length === 0 && cursor === undefined) {
    return (
      <div className="empty-state empty-state--compact">
        <p className="empty-state__title">The library is empty</p>
        <p className="empty-state__text">
          Fleets are installed from library entries. Add a fleet definition to the library first.
        </p>
        <Link className="ui-button ui-button--secondary ui-button--sm" href={libraryHref(workspaceId)}>
          Open the library
        </Link>
      </div>
    );
  }
  return (
    <fieldset className="entry-options" aria-busy={list.isPlaceholderData || undefined}>
      <legend className="ui-label">Library entry</legend>
      {list.data.items.map((entry) => {
        const id = `${group}-${entry.id}`;
        const credentials = entry.requirements.credentials;
        return (
          <label key={entry.id} htmlFor={id} className="entry-option" data-library-id={entry.id}>
            <input
              id={id}
              type="radio"
              name={group}
              checked={value?.id === entry.id}
              onChange={() => onChange(entry)}
              aria-labelledby={`${id}-name`}
              aria-describedby={`${id}-about`}
            />
            <span className="entry-option__text">
              <span className="entry-option__title">
                <span id={`${id}-name`} className="entry-option__name">
                  {entry.name}
                </span>
                <StatusBadge status={entry.visibility} variants={visibilityVariants} />
              </span>
              <span id={`${id}-about`} className="entry-option__about">
                {entry.description ? <span>{entry.description}</span> : null}
                <span className="entry-option__needs">
                  {credentials.length === 0
                    ? "Needs no credentials"
                    : `Needs ${credentials.length === 1 ? "the credential" : "the credentials"} ${credentials.join(", ")}`}
                </span>
              </span>
            </span>
          </label>
        );
      })}
      {cursors.length > 1 || list.data.next_cursor ? (
        <div className="entry-options__pager">
          <span className="muted">
            {list.data.total} {list.data.total === 1 ? "entry" : "entries"}
          </span>
          <span className="entry-options__pager-buttons">
            <Button
              size="sm"
              disabled={cursors.length === 1}
              onClick={() => setCursors((stack) => stack.slice(0, -1))}
            >
              Previous entries
            </Button>
            <Button
              size="sm"
              disabled={!list.data.next_cursor}
              onClick={() => {
                const next = list.data?.next_cursor;
                if (next) setCursors((stack) => [...stack, next]);
              }}
            >
              More entries
            </Button>
          </span>
        </div>
      ) : null}
    </fieldset>
  );
}
