"use client";

import { CursorPager, ShieldIcon, Tabs } from "@fleet/ui";
import { keepPreviousData, skipToken, useQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { Link } from "../../components/link.tsx";
import { type LiveState, LiveStatus } from "../../components/live-status.tsx";
import { PageHeader } from "../../components/page-header.tsx";
import { ListLoading, QueryProblem } from "../../components/query-problem.tsx";
import { WorkspaceCard, WorkspaceListBody } from "../../components/workspace-list.tsx";
import { pollInterval, useOverdue } from "../../lib/poll.ts";
import { useShortcuts } from "../../lib/shortcuts.tsx";
import { useTRPC } from "../../lib/trpc.ts";
import { type ApprovalsPosition, approvalsHref } from "../../lib/urls.ts";
import { useWorkspaceChoice } from "../../lib/use-workspace.ts";
import { liveStateOf } from "../fleet-events/use-live-runs.ts";
import type { AnswerResult, Decision, Gate } from "./answer.ts";
import { AnsweredNotices } from "./answered-notices.tsx";
import { ApprovalFilters } from "./approval-filters.tsx";
import { BulkAnswer, BulkOutcome, gateName } from "./bulk-answer.tsx";
import { GateDetail } from "./gate-detail.tsx";
import { GateTable } from "./gate-table.tsx";
import { approvalsFleetsInput, approvalsListInput } from "./inbox-query.ts";
import { statusTabs } from "./labels.ts";
import type { Draft } from "./use-answer-form.ts";
import { useGateAnswers } from "./use-answers.ts";
import { useGateStream } from "./use-gate-stream.ts";

/** How long a gate the person did not open with j or k is on screen before a and d answer it. */
const SETTLE_MS = 800;

/**
 * The approvals inbox: gates oldest first (the oldest is the most urgent), a status tab, fleet and kind
 * filters and the page in the URL, the chosen gate in a pane beside the list. It polls until live tail
 * lands and refreshes whenever the window regains focus.
 */
export function ApprovalsView({ position }: { position: ApprovalsPosition }) {
  const trpc = useTRPC();
  const router = useRouter();
  const choice = useWorkspaceChoice(position.workspaceId, (id) =>
    approvalsHref({ status: position.status, workspaceId: id }),
  );
  const { chosenId } = choice;
  const { status, fleetId, kind, cursor } = position;
  const here = (patch: Partial<ApprovalsPosition>) =>
    approvalsHref({ ...position, workspaceId: chosenId, ...patch });

  // The gates listed, for naming one that someone answered (its frame carries only its id).
  const listedGates = useRef<Gate[]>([]);
  const gates = useGateStream(chosenId, (gateId) => {
    const known = listedGates.current.find((item) => item.gate_id === gateId);
    return known ? gateName(known) : undefined;
  });
  const list = useQuery(
    trpc.approvals.list.queryOptions(chosenId ? approvalsListInput(chosenId, position) : skipToken, {
      // The previous page stays while the next loads, but never another workspace's or tab's rows.
      placeholderData: (previous, query) => {
        const input = (
          query?.queryKey[1] as { input?: { workspace_id?: string; status?: string } } | undefined
        )?.input;
        return input?.workspace_id === chosenId && input?.status === status
          ? keepPreviousData(previous)
          : undefined;
      },
      // The stream refetches when a gate opens or is answered; without it (or while it is down), poll.
      refetchInterval: cursor || gates.stream.state === "live" ? false : pollInterval,
      refetchIntervalInBackground: false,
      refetchOnWindowFocus: "always",
    }),
  );
  const fleets = useQuery(
    trpc.fleets.list.queryOptions(chosenId ? approvalsFleetsInput(chosenId) : skipToken),
  );
  const overdue = useOverdue(list.dataUpdatedAt);
  listedGates.current = list.data?.items ?? [];
  const me = useQuery(trpc.users.getMe.queryOptions({})).data?.user_id;

  const items = list.data?.items ?? [];
  // The open gate changes with every j and k: kept here and written into the URL without a round trip to
  // the server, so keys pressed quickly each move from where the last one left.
  // The view (workspace, tab, filters, page) the key moves were made in: another view starts afresh.
  const view = JSON.stringify([chosenId, status, fleetId, kind, cursor]);
  const [opened, setOpened] = useState<{ view: string; from: string | undefined; gate: string | undefined }>({
    view,
    from: position.gate,
    gate: position.gate,
  });
  const selected = opened.view === view && opened.from === position.gate ? opened.gate : position.gate;
  const currentId = selected ?? items[0]?.gate_id;
  const listed = items.find((gate) => gate.gate_id === currentId);
  const detail = useQuery(
    trpc.approvals.get.queryOptions(
      chosenId && currentId ? { workspace_id: chosenId, gate_id: currentId } : skipToken,
      {
        refetchInterval: (query) => (query.state.data?.status === "pending" ? pollInterval(query) : false),
        refetchOnWindowFocus: "always",
      },
    ),
  );
  const gate: Gate | undefined = detail.data ?? listed;

  const answers = useGateAnswers(chosenId);
  const [draft, setDraft] = useState<Draft | null>(null);
  const currentDraft: Draft =
    draft !== null && draft.gateId === currentId
      ? draft
      : { gateId: currentId ?? "", reason: "", amended: null };
  const [checked, setChecked] = useState<ReadonlySet<string>>(new Set());
  const [bulk, setBulk] = useState<{
    busy: Decision | null;
    results: AnswerResult[] | null;
    labels: Record<string, string>;
  }>({
    busy: null,
    results: null,
    labels: {},
  });
  const [done, setDone] = useState<{ workspaceId: string; message: string } | null>(null);

  // A new view starts with nothing checked.
  useEffect(() => {
    void view;
    setChecked(new Set());
    setBulk({ busy: null, results: null, labels: {} });
  }, [view]);

  // The row the keys moved to stays in sight.
  useEffect(() => {
    if (currentId)
      document
        .querySelector(`tr[data-gate-id="${CSS.escape(currentId)}"]`)
        ?.scrollIntoView({ block: "nearest" });
  }, [currentId]);

  const open = (gateId: string | undefined) => {
    setOpened({ view, from: position.gate, gate: gateId });
    window.history.replaceState(window.history.state, "", here({ gate: gateId }));
  };
  const move = (step: 1 | -1) => {
    if (items.length === 0) return;
    const index = items.findIndex((item) => item.gate_id === currentId);
    const next = index === -1 ? 0 : Math.min(items.length - 1, Math.max(0, index + step));
    openedByKey.current = items[next]?.gate_id !== currentId;
    open(items[next]?.gate_id);
  };

  // a and d answer only a gate that has been on screen a moment, unless the person opened it with j or k:
  // after an answer the inbox moves on by itself (and the list shifts when a gate leaves it), and a second
  // press (a double press, a held key) must not answer a gate the person has not read yet.
  const openedByKey = useRef(false);
  const shown = useRef({ gate: currentId, at: Number.NEGATIVE_INFINITY });
  useEffect(() => {
    shown.current = {
      gate: currentId,
      at: openedByKey.current ? Number.NEGATIVE_INFINITY : performance.now(),
    };
    openedByKey.current = false;
  }, [currentId]);
  const answerByKey = (decision: Decision) => {
    if (shown.current.gate === currentId && performance.now() - shown.current.at < SETTLE_MS) return;
    void answerCurrent(decision);
  };

  const answerCurrent = async (decision: Decision) => {
    if (gate?.status !== "pending" || answers.pending.has(gate.gate_id)) return;
    const amending = decision === "approve" && currentDraft.amended !== null;
    if (
      amending &&
      (currentDraft.amended?.trim() === "" || currentDraft.amended?.trim() === gate.proposed_action.trim())
    )
      return;
    const index = items.findIndex((item) => item.gate_id === gate.gate_id);
    const result = await answers.answer(gate.gate_id, decision, {
      reason: currentDraft.reason,
      amendedAction: amending ? (currentDraft.amended ?? undefined) : undefined,
    });
    if (result?.kind === "answered" && chosenId) {
      const { answer } = result;
      setDone({
        workspaceId: chosenId,
        message:
          decision === "deny"
            ? `Denied ${gateName(gate)}.`
            : answer.outcome === "pending"
              ? `Approved ${gateName(gate)} (${answer.approvals.length} of ${answer.required_approvals}); it waits for more approvals.`
              : `Approved ${gateName(gate)}.`,
      });
      // On to the next gate waiting, as an inbox does; the answered one is a click away in its tab.
      const next = items[index + 1] ?? items[index - 1];
      if (status === "pending" && next && next.gate_id !== gate.gate_id) open(next.gate_id);
    }
  };

  const answerChecked = async (decision: Decision) => {
    const ids = items.filter((item) => checked.has(item.gate_id)).map((item) => item.gate_id);
    if (ids.length === 0 || bulk.busy) return;
    const labels = Object.fromEntries(
      items.filter((item) => checked.has(item.gate_id)).map((item) => [item.gate_id, gateName(item)]),
    );
    setBulk({ busy: decision, results: null, labels });
    const results = await answers.answerMany(ids, decision);
    setBulk({ busy: null, results, labels });
    setChecked(new Set());
  };

  const toggle = (gateId: string, on: boolean) =>
    setChecked((current) => {
      const next = new Set(current);
      if (on) next.add(gateId);
      else next.delete(gateId);
      return next;
    });

  const pendingTab = status === "pending";
  const outcome = bulk.results ? (
    <BulkOutcome
      results={bulk.results}
      labels={bulk.labels}
      me={me}
      onDismiss={() => setBulk({ busy: null, results: null, labels: {} })}
    />
  ) : null;
  useShortcuts("Approvals", [
    { key: "j", description: "Open the next gate", run: () => move(1) },
    { key: "k", description: "Open the previous gate", run: () => move(-1) },
    ...(pendingTab
      ? [
          { key: "a", description: "Approve the open gate", run: () => answerByKey("approve") },
          { key: "d", description: "Deny the open gate", run: () => answerByKey("deny") },
          {
            key: "x",
            description: "Select or unselect the open gate",
            run: () => currentId && toggle(currentId, !checked.has(currentId)),
          },
        ]
      : []),
  ]);

  const live: LiveState = cursor
    ? "paused"
    : liveStateOf(gates.stream, {
        hasData: list.data !== undefined,
        failed: list.error !== null,
        fetching: list.isFetching,
        overdue,
      });
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
        done={done !== null && done.workspaceId === chosenId ? done.message : null}
        summary={
          <>
            {count !== undefined && count > 0 ? (
              <p className="toolbar-summary">
                {count}
                {list.data?.next_cursor ? "+" : ""} {count === 1 ? "gate" : "gates"} · oldest first
              </p>
            ) : null}
            <LiveStatus
              state={live}
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
            answers.pending.has(gateId) || answers.resultOf(gateId)?.kind === "answered"
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
                <div className="inbox">
                  <div className="inbox__list">
                    {pendingTab && data.items.length > 0 ? (
                      <BulkAnswer
                        gates={data.items}
                        checked={checked}
                        busy={bulk.busy}
                        onCheckAll={(all) =>
                          setChecked(all ? new Set(data.items.map((item) => item.gate_id)) : new Set())
                        }
                        onClear={() => setChecked(new Set())}
                        onAnswer={(decision) => void answerChecked(decision)}
                      />
                    ) : null}
                    {outcome}
                    {data.items.length > 0 ? (
                      <GateTable
                        gates={data.items}
                        workspaceName={ws.name}
                        current={currentId}
                        hrefFor={(gateId) => here({ gate: gateId })}
                        onOpen={open}
                        checked={pendingTab ? checked : new Set()}
                        onCheck={toggle}
                        answering={answers.pending}
                        busy={list.isPlaceholderData}
                        pendingTab={pendingTab}
                      />
                    ) : (
                      <p className="card__body muted">No other gates on this page.</p>
                    )}
                    {cursor || data.next_cursor ? (
                      <CursorPager
                        label="Pages of gates"
                        summary={`${data.items.length} shown · oldest first`}
                        firstHref={cursor ? here({ cursor: undefined, gate: undefined }) : undefined}
                        nextHref={
                          data.next_cursor ? here({ cursor: data.next_cursor, gate: undefined }) : undefined
                        }
                        link={Link}
                      />
                    ) : null}
                    <p className="inbox__keys">
                      <kbd>j</kbd> <kbd>k</kbd> move
                      {pendingTab ? (
                        <>
                          {" · "}
                          <kbd>a</kbd> approve · <kbd>d</kbd> deny · <kbd>x</kbd> select
                        </>
                      ) : null}
                      {" · "}
                      <kbd>?</kbd> all shortcuts
                    </p>
                  </div>
                  <div className="inbox__pane">
                    {gate ? (
                      <GateDetail
                        key={gate.gate_id}
                        gate={gate}
                        me={me}
                        draft={currentDraft}
                        onDraft={setDraft}
                        onAnswer={(decision) => void answerCurrent(decision)}
                        answering={answers.pending.has(gate.gate_id)}
                        result={answers.resultOf(gate.gate_id)}
                      />
                    ) : detail.error ? (
                      <div className="card__body">
                        <QueryProblem query={detail} />
                      </div>
                    ) : currentId ? (
                      <ListLoading>Loading the gate…</ListLoading>
                    ) : null}
                  </div>
                </div>
              )
            }
          </WorkspaceListBody>
        </Tabs>
      </WorkspaceCard>
    </div>
  );
}

const emptyWords: Record<string, { title: string; text: string }> = {
  pending: {
    title: "Nothing waits for an answer",
    text: "When a fleet asks before it acts (a deploy, a payment, a message to a customer), its request appears here, oldest first, until someone answers or its deadline passes.",
  },
  approved: { title: "No approved gates", text: "Gates approved in this workspace are listed here." },
  denied: { title: "No denied gates", text: "Gates denied in this workspace are listed here." },
  timed_out: {
    title: "No gates timed out",
    text: "A gate nobody answers before its deadline is denied and listed here.",
  },
  auto_killed: {
    title: "No auto-killed gates",
    text: "Gates still pending when their fleet was stopped, killed or deleted are closed and listed here.",
  },
};

function EmptyInbox({
  status,
  filtered,
  after,
  workspaceName,
}: {
  status: string;
  filtered: boolean;
  after: boolean;
  workspaceName: string;
}) {
  const words = emptyWords[status] ?? emptyWords.pending!;
  return (
    <div className="empty-state">
      <span className="empty-state__icon" aria-hidden="true">
        <ShieldIcon />
      </span>
      <p className="empty-state__title">
        {after
          ? "No more gates"
          : filtered
            ? "No gates match the filters"
            : `${words.title} in ${workspaceName}`}
      </p>
      <p className="empty-state__text">
        {after
          ? "This page is past the last gate."
          : filtered
            ? "Widen the filters or clear them to see every gate."
            : words.text}
      </p>
    </div>
  );
}
