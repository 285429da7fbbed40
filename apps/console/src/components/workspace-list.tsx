"use client";

import { useRouter } from "next/navigation";
import type { ReactNode } from "react";
import type { WorkspaceChoice } from "../lib/use-workspace.ts";
import { DoneStatus } from "./done-status.tsx";
import { Link } from "./link.tsx";
import { ListBody, type ListQuery } from "./list-body.tsx";
import { ListLoading, ListProblem } from "./query-problem.tsx";
import { WorkspacePicker } from "./workspace-picker.tsx";

/**
 * The card that holds one workspace's list: the workspace picker (a choice navigates, so it lives in the
 * URL), what the last action did, said where the eyes are once its dialog closes, and the list itself.
 */
export function WorkspaceCard({
  headingId,
  heading,
  choice,
  hrefFor,
  done,
  summary,
  children,
}: {
  headingId: string;
  heading: string;
  choice: Pick<WorkspaceChoice, "items" | "chosenId" | "more" | "workspaces">;
  hrefFor: (workspaceId: string) => string;
  done: ReactNode;
  /** Said after the status, at the toolbar's end. */
  summary?: ReactNode;
  children: ReactNode;
}) {
  const router = useRouter();
  return (
    <section className="card" aria-labelledby={headingId}>
      <h2 id={headingId} className="ui-visually-hidden">
        {heading}
      </h2>
      <div className="card__toolbar">
        <WorkspacePicker
          workspaces={choice.items}
          value={choice.chosenId}
          more={choice.more}
          failed={choice.workspaces.isError}
          onChange={(id) => router.push(hrefFor(id))}
        />
        <div className="card__toolbar-end">
          <DoneStatus done={done} />
          {summary}
        </div>
      </div>
      {children}
    </section>
  );
}

const wayClass = "ui-button ui-button--secondary ui-button--sm";

/**
 * What a workspace's list shows before its page: the workspaces failing or missing, the list failing
 * (why, never an empty table that looks like "none"), or loading. Then `children` renders the page.
 */
export function WorkspaceListBody<T>({
  choice,
  list,
  waitForNames = false,
  loading,
  noWorkspaces,
  retryWorkspaces = false,
  firstPageHref,
  workspaceHref,
  children,
}: {
  choice: WorkspaceChoice;
  list: ListQuery<T>;
  /** The page names the workspace: wait for the workspaces too, not only for the list. */
  waitForNames?: boolean;
  loading: string;
  /** Said when the tenant has no workspace; without it the page keeps loading. */
  noWorkspaces?: ReactNode;
  /** Offer a retry when the workspaces fail. */
  retryWorkspaces?: boolean;
  /** On a later page, a failed list offers the first. */
  firstPageHref?: string | undefined;
  /** Otherwise a failed list offers the first workspace, when another is chosen. */
  workspaceHref?: (workspaceId: string) => string;
  children: (data: T, workspace: NonNullable<WorkspaceChoice["workspace"]>) => ReactNode;
}) {
  const { workspaces, items, first, chosenId, workspace } = choice;
  // Every member lists the workspaces; an outage still leaves the one a link names reachable.
  if (workspaces.error && chosenId === undefined) {
    return <ListProblem query={workspaces} retry={retryWorkspaces ? "outage" : "never"} />;
  }
  if (noWorkspaces && items !== undefined && items.length === 0) {
    return (
      <div className="empty-state">
        <p className="empty-state__title">No workspaces in this tenant</p>
        <p className="empty-state__text">{noWorkspaces}</p>
      </div>
    );
  }
  const failed = list.error !== null && !list.isPlaceholderData;
  if (!failed && (workspace === undefined || (waitForNames && items === undefined && !workspaces.error))) {
    return <ListLoading>{loading}</ListLoading>;
  }
  const ways = firstPageHref ? (
    <Link className={wayClass} href={firstPageHref}>
      Back to the first page
    </Link>
  ) : workspaceHref && first && first.id !== chosenId ? (
    <Link className={wayClass} href={workspaceHref(first.id)}>
      Show the workspace {first.name}
    </Link>
  ) : null;
  // With rows, a workspace is chosen (the list's input names it), so `workspace` is set.
  return (
    <ListBody list={list} loading={loading} ways={ways}>
      {(data) => (workspace ? children(data, workspace) : <ListLoading>{loading}</ListLoading>)}
    </ListBody>
  );
}
