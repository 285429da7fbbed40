"use client";

import { CursorPager } from "@fleet/ui";
import type { ReactNode } from "react";
import { Link } from "../../components/link.tsx";
import { ListLoading } from "../../components/query-problem.tsx";
import type { Gate } from "./answer.ts";
import { BulkAnswer } from "./bulk-answer.tsx";
import { GateDetail } from "./gate-detail.tsx";
import { GateTable } from "./gate-table.tsx";
import { GateAnswered, GateUnavailable } from "./gate-unavailable.tsx";
import type { Inbox as InboxState } from "./use-inbox.ts";
import type { InboxAnswers } from "./use-inbox-answers.ts";
import "./inbox.css";

/**
 * A page of gates beside the open one: the bulk bar (pending tab), the bulk answer's outcome, the gates,
 * the pager and the keys, and the pane with the open gate in full.
 */
export function Inbox({
  page,
  workspaceName,
  inbox,
  act,
  pendingTab,
  cursor,
  outcome,
  cannotAnswer,
}: {
  page: { items: Gate[]; next_cursor: string | null };
  workspaceName: string;
  inbox: InboxState;
  act: InboxAnswers;
  pendingTab: boolean;
  /** The page's cursor: past the first page, the pager leads back to it. */
  cursor: string | undefined;
  /** What the last bulk answer came to, said above the list. */
  outcome: ReactNode;
  /** Why the person cannot answer gates (no approval:resolve): no selection, keys or answer form then. */
  cannotAnswer: string | null;
}) {
  const answering = pendingTab && cannotAnswer === null;
  const { here, currentId, gate, detail, list, me } = inbox;
  return (
    <div className="inbox">
      <div className="inbox__list">
        {answering && page.items.length > 0 ? (
          <BulkAnswer
            gates={page.items}
            checked={act.checked}
            busy={act.bulk.busy}
            onCheckAll={(all) =>
              act.setChecked(all ? new Set(page.items.map((item) => item.gate_id)) : new Set())
            }
            onClear={() => act.setChecked(new Set())}
            onAnswer={(decision, reason) => void act.answerChecked(decision, reason)}
          />
        ) : null}
        {outcome}
        {page.items.length > 0 ? (
          <GateTable
            gates={page.items}
            workspaceName={workspaceName}
            current={currentId}
            hrefFor={(gateId) => here({ gate: gateId })}
            onOpen={inbox.open}
            checked={answering ? act.checked : new Set()}
            onCheck={act.toggle}
            answering={act.answers.pending}
            busy={list.isPlaceholderData}
            pendingTab={pendingTab}
            selectable={cannotAnswer === null}
          />
        ) : (
          <p className="card__body muted">No other gates on this page.</p>
        )}
        {cursor || page.next_cursor ? (
          <CursorPager
            label="Pages of gates"
            summary={`${page.items.length} shown · oldest first`}
            firstHref={cursor ? here({ cursor: undefined, gate: undefined }) : undefined}
            nextHref={page.next_cursor ? here({ cursor: page.next_cursor, gate: undefined }) : undefined}
            link={Link}
          />
        ) : null}
        <p className="inbox__keys">
          <kbd>j</kbd> <kbd>k</kbd> move
          {answering ? (
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
        {gate && pendingTab && !act.answers.resultOf(gate.gate_id) ? (
          <GateAnswered gate={gate} me={me} />
        ) : null}
        {gate ? (
          <GateDetail
            key={gate.gate_id}
            gate={gate}
            me={me}
            draft={act.draft}
            onDraft={act.setDraft}
            onAnswer={(decision) => void act.answerCurrent(decision)}
            answering={act.answers.pending.has(gate.gate_id)}
            result={act.answers.resultOf(gate.gate_id)}
          />
        ) : detail.error && currentId ? (
          <div className="card__body">
            <GateUnavailable
              gateId={currentId}
              workspaceId={inbox.chosenId ?? ""}
              detail={detail}
              hrefIn={(workspaceId) => here({ workspaceId, fleetId: undefined, cursor: undefined })}
            />
          </div>
        ) : currentId ? (
          <ListLoading>Loading the gate…</ListLoading>
        ) : null}
      </div>
    </div>
  );
}
