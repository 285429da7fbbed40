"use client";

import { RelativeTime } from "@fleet/ui";
import { skipToken, useQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import type { ReactNode } from "react";
import { PageHeader } from "../../components/page-header.tsx";
import { ListProblem } from "../../components/query-problem.tsx";
import { WorkspacePicker } from "../../components/workspace-picker.tsx";
import { pollInterval } from "../../lib/poll.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { useWorkspaceChoice } from "../../lib/use-workspace.ts";
import {
  FailedRunsPanel,
  FailedSchedulesPanel,
  PendingApprovalsPanel,
  RunnersPanel,
  SpendPanel,
  WaitingEventsPanel,
} from "./panels.tsx";
import { overviewHref } from "./urls.ts";
import "./panels.css";
import "./overview-view.css";

/** The overview looks for news this often; it is one bounded read. */
const OVERVIEW_POLL_MS = 15_000;

/**
 * The home page: what needs a person now in the chosen workspace, each panel linking to the place that
 * fixes it. The workspace lives in the URL, as on every workspace page.
 */
export function OverviewView({ workspaceId }: { workspaceId: string | undefined }) {
  const trpc = useTRPC();
  const router = useRouter();
  const choice = useWorkspaceChoice(workspaceId);
  const { chosenId, workspaces, items } = choice;
  const overview = useQuery(
    trpc.overview.get.queryOptions(chosenId ? { workspace_id: chosenId } : skipToken, {
      refetchInterval: (query) => pollInterval(query, OVERVIEW_POLL_MS),
      refetchOnWindowFocus: "always",
    }),
  );
  const data = overview.data?.workspace_id === chosenId ? overview.data : undefined;

  let body: ReactNode;
  if (workspaces.error && chosenId === undefined) {
    body = (
      <section className="card">
        <ListProblem query={workspaces} retry="never" />
      </section>
    );
  } else if (items !== undefined && items.length === 0) {
    body = (
      <section className="card empty-state">
        <p className="empty-state__title">No workspaces in this tenant</p>
        <p className="empty-state__text">Fleets run in a workspace. Create one through the API first.</p>
      </section>
    );
  } else if (overview.error && data === undefined) {
    body = (
      <section className="card" aria-label="Overview">
        <ListProblem query={overview} />
      </section>
    );
  } else if (data === undefined || chosenId === undefined) {
    body = <OverviewSkeleton />;
  } else {
    body = (
      <>
        {/* A refresh that failed (the API stopped, say) says so above what was last loaded, rather than
            leaving panels that look current. */}
        {overview.error ? (
          <section className="card" aria-label="Overview not refreshed">
            <ListProblem query={overview}>
              <span className="muted">Below is the overview as it was last loaded.</span>
            </ListProblem>
          </section>
        ) : null}
        <div className="overview-grid">
          <PendingApprovalsPanel data={data} />
          <WaitingEventsPanel data={data} />
          <RunnersPanel data={data} />
          <FailedRunsPanel data={data} />
          <FailedSchedulesPanel data={data} />
          <SpendPanel data={data} />
        </div>
      </>
    );
  }

  return (
    <div className="page page--wide overview">
      <PageHeader
        title="Overview"
        description="What needs you now: approvals waiting for an answer, work waiting for a runner and why, runners, what failed today and what it cost. Each panel links to the place that fixes it."
      />
      <section className="card overview-toolbar" aria-label="Workspace">
        <div className="card__toolbar">
          <WorkspacePicker
            workspaces={items}
            value={chosenId}
            more={choice.more}
            failed={choice.workspaces.isError}
            onChange={(id) => router.push(overviewHref(id))}
          />
          {data ? (
            <p className="toolbar-summary">
              Updated <RelativeTime value={data.generated_at} />
            </p>
          ) : null}
        </div>
      </section>
      {body}
    </div>
  );
}

/** Six panel outlines while the first read is under way. */
function OverviewSkeleton() {
  return (
    <div className="overview-grid" aria-busy="true">
      <p className="ui-visually-hidden" role="status">
        Loading the overview…
      </p>
      {["approvals", "waiting", "runners", "failed", "schedules", "spend"].map((panel) => (
        <section key={panel} className="card overview-panel" aria-hidden="true">
          <div className="overview-skeleton overview-skeleton--title" />
          <div className="overview-panel__body">
            <div className="overview-skeleton" />
            <div className="overview-skeleton overview-skeleton--short" />
            <div className="overview-skeleton" />
          </div>
        </section>
      ))}
    </div>
  );
}
