"use client";

import { Tabs } from "@fleet/ui";
import { useRouter } from "next/navigation";
import { LiveStatus } from "../../components/live-status.tsx";
import { PageHeader } from "../../components/page-header.tsx";
import { WorkspaceCard, WorkspaceListBody } from "../../components/workspace-list.tsx";
import { useLacking } from "../../lib/access.ts";
import { useShortcuts } from "../../lib/shortcuts.tsx";
import { type ApprovalsPosition, approvalsHref } from "../../lib/urls.ts";
import { AnsweredNotices } from "./answered-notices.tsx";
import { ApprovalFilters } from "./approval-filters.tsx";
import { BulkOutcome } from "./bulk-answer.tsx";
import { ConfirmApprove } from "./confirm-approve.tsx";
import { EmptyInbox } from "./empty-inbox.tsx";
import { Inbox } from "./inbox.tsx";
import { statusTabs } from "./labels.ts";
import { useInbox } from "./use-inbox.ts";
import { useInboxAnswers } from "./use-inbox-answers.ts";

/**
 * The approvals inbox: gates oldest first (the oldest is the most urgent), a status tab, fleet and kind
 * filters and the page in the URL, the chosen gate in a pane beside the list. It polls until live tail
 * lands and refreshes whenever the window regains focus.
 */
export function ApprovalsView({ position }: { position: ApprovalsPosition }) {
  const router = useRouter();
  const inbox = useInbox(position);
  const act = useInboxAnswers(inbox, position.status);
  const { choice, here, gates, list, fleets, me, selected, currentId } = inbox;
  const { status, fleetId, kind, cursor } = position;

  const pendingTab = status === "pending";
  // A Viewer reads the inbox but cannot answer: no keys, selection or answer form offered then.
  const cannotAnswer = useLacking("approval:resolve");
  const outcome = act.bulk.results ? (
    <BulkOutcome results={act.bulk.results} labels={act.bulk.labels} me={me} onDismiss={act.dismissBulk} />
  ) : null;
  useShortcuts("Approvals", [
    { key: "j", description: "Open the next gate", run: () => inbox.move(1) },
    { key: "k", description: "Open the previous gate", run: () => inbox.move(-1) },
    ...(pendingTab && !cannotAnswer
      ? [
          { key: "a", description: "Approve the open gate", run: () => act.answerByKey("approve") },
          { key: "d", description: "Deny the open gate", run: () => act.answerByKey("deny") },
          {
            key: "x",
            description: "Select or unselect the open gate",
            run: () => currentId && act.toggle(currentId, !act.checked.has(currentId)),
          },
        ]
      : []),
  ]);

  const filtered = Boolean(fleetId || kind);
  const count = list.data?.items.length;

  return (
    <div className="page page--wide">
      <PageHeader
        title="Approvals"
        description="What your fleets asked to do and wait on a person for, oldest first. Approve, deny, or approve a changed action; a gate nobody answers is denied at its deadline."
      />
      <WorkspaceCard
        headingId="approvals-heading"
        heading="Approval gates"
        choice={choice}
        hrefFor={(id) => approvalsHref({ status, workspaceId: id })}
        done={act.done}
        summary={
          <>
            {count !== undefined && count > 0 ? (
              <p className="toolbar-summary">
                {count}
                {list.data?.next_cursor ? "+" : ""} {count === 1 ? "gate" : "gates"} · oldest first
              </p>
            ) : null}
            <LiveStatus
              state={inbox.live}
              onReconnect={() =>
                gates.stream.state === "unavailable" ? list.refetch() : gates.stream.reconnect()
              }
            />
          </>
        }
      >
        <AnsweredNotices
          notices={gates.notices}
          me={me}
          answeredHere={(gateId) =>
            act.answers.pending.has(gateId) || act.answers.resultOf(gateId)?.kind === "answered"
          }
          onDismiss={gates.dismiss}
        />
        <Tabs
          label="Gate status"
          tabs={statusTabs}
          value={status}
          onChange={(next) => router.push(here({ status: next, cursor: undefined, gate: undefined }))}
        >
          <ApprovalFilters
            values={{ fleetId, kind }}
            fleets={fleets.data?.items}
            clearHref={
              filtered
                ? here({ fleetId: undefined, kind: undefined, cursor: undefined, gate: undefined })
                : undefined
            }
            onApply={(values) => router.push(here({ ...values, cursor: undefined, gate: undefined }))}
          />
          <WorkspaceListBody
            choice={choice}
            list={list}
            loading="Loading gates…"
            noWorkspaces="Gates belong to a workspace's fleets. Create a workspace through the API (POST /v1/workspaces) and install a fleet in it."
            retryWorkspaces
            firstPageHref={cursor ? here({ cursor: undefined, gate: undefined }) : undefined}
          >
            {(data, ws) =>
              data.items.length === 0 && !selected ? (
                // The outcome of a bulk answer stays when it emptied the page: it says what happened.
                <>
                  {outcome}
                  <EmptyInbox
                    status={status}
                    filtered={filtered}
                    after={Boolean(cursor)}
                    workspaceName={ws.name}
                  />
                </>
              ) : (
                <Inbox
                  page={data}
                  workspaceName={ws.name}
                  inbox={inbox}
                  act={act}
                  pendingTab={pendingTab}
                  cursor={cursor}
                  outcome={outcome}
                  cannotAnswer={cannotAnswer}
                />
              )
            }
          </WorkspaceListBody>
        </Tabs>
      </WorkspaceCard>
      <ConfirmApprove
        gate={act.confirming}
        reason={act.draft.reason}
        onConfirm={act.confirmApprove}
        onCancel={act.cancelConfirm}
      />
    </div>
  );
}
