"use client";

import type { GateStatus } from "@fleet/contracts";
import { useEffect, useState } from "react";
import type { AnswerResult, Decision, Gate } from "./answer.ts";
import { gateName } from "./bulk-answer.tsx";
import { highBlast } from "./confirm-approve.tsx";
import type { Draft } from "./use-answer-form.ts";
import { useGateAnswers } from "./use-answers.ts";
import type { Inbox } from "./use-inbox.ts";

/**
 * Answering from the inbox: the open gate's draft, answered by its buttons or by a and d (on to the next
 * gate waiting once it is), the gates checked for a bulk answer and what that came to, and what the last
 * answer did, said in the toolbar.
 */
export function useInboxAnswers(inbox: Inbox, status: GateStatus) {
  const { chosenId, items, currentId, gate, view, open } = inbox;
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

  /**
   * a and d: only a gate that has been on screen a moment (see `useInbox`'s `settled`). a on a gate whose
   * blast radius is high asks first (`confirming`); the answer then goes to that gate or to none.
   */
  const [confirming, setConfirming] = useState<Gate | null>(null);
  const answerByKey = (decision: Decision) => {
    if (!inbox.settled()) return;
    if (decision === "approve" && gate?.status === "pending" && highBlast(gate)) setConfirming(gate);
    else void answerCurrent(decision);
  };
  const confirmApprove = (asked: Gate) => {
    setConfirming(null);
    if (asked.gate_id === gate?.gate_id) void answerCurrent("approve");
  };

  const answerChecked = async (decision: Decision, reason = "") => {
    const ids = items.filter((item) => checked.has(item.gate_id)).map((item) => item.gate_id);
    if (ids.length === 0 || bulk.busy) return;
    const labels = Object.fromEntries(
      items.filter((item) => checked.has(item.gate_id)).map((item) => [item.gate_id, gateName(item)]),
    );
    setBulk({ busy: decision, results: null, labels });
    const results = await answers.answerMany(ids, decision, { reason });
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

  return {
    answers,
    draft: currentDraft,
    setDraft,
    checked,
    setChecked,
    toggle,
    bulk,
    dismissBulk: () => setBulk({ busy: null, results: null, labels: {} }),
    done: done !== null && done.workspaceId === chosenId ? done.message : null,
    answerCurrent,
    answerByKey,
    confirming,
    confirmApprove,
    cancelConfirm: () => setConfirming(null),
    answerChecked,
  };
}

export type InboxAnswers = ReturnType<typeof useInboxAnswers>;
