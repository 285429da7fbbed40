"use client";

import { useId } from "react";
import type { Gate } from "./answer.ts";

/** What the person has typed for the gate open in the pane; kept per gate, dropped when another opens. */
export interface Draft {
  gateId: string;
  reason: string;
  /** The changed action when approving with changes; null while not editing. */
  amended: string | null;
  /** The extend form is open in place of the answers. */
  extending?: boolean;
  /** What the last extension from this pane did. */
  extended?: string | null;
}

/**
 * The pane's answer form as the draft has it: whether a quorum counts approvals, whether this person has
 * approved already, the changed action and what is wrong with it, and the draft's edits (each a new draft
 * handed up, since the inbox keeps the draft of the gate open).
 */
export function useAnswerForm(
  gate: Gate,
  draft: Draft,
  onDraft: (draft: Draft) => void,
  me: string | undefined,
) {
  const reasonId = useId();
  const amendId = useId();
  const quorum = gate.required_approvals > 1;
  const mine = gate.approvals.some((approval) => approval.user_id === me || approval.by === `user:${me}`);
  const missingApprovals = gate.required_approvals - gate.approvals.filter((a) => a.counted).length;
  const amending = draft.amended !== null;
  const unchanged = draft.amended !== null && draft.amended.trim() === gate.proposed_action.trim();
  const emptyAmend = draft.amended !== null && draft.amended.trim() === "";
  return {
    reasonId,
    amendId,
    quorum,
    mine,
    missingApprovals,
    amending,
    unchanged,
    emptyAmend,
    setReason: (reason: string) => onDraft({ ...draft, reason }),
    setAmended: (amended: string) => onDraft({ ...draft, amended }),
    startAmending: () => onDraft({ ...draft, amended: gate.proposed_action }),
    cancelAmending: () => onDraft({ ...draft, amended: null }),
    startExtending: () => onDraft({ ...draft, extending: true, extended: null }),
    extended: (message: string | null) => onDraft({ ...draft, extending: false, extended: message }),
  };
}
