"use client";

import { Button, GuardedButton } from "@fleet/ui";
import type { Decision, Gate } from "./answer.ts";
import { actionLabel } from "./labels.ts";
import type { useAnswerForm } from "./use-answer-form.ts";
import "./answer-form.css";

/**
 * A pending gate's answers: an optional reason, and approve, deny, approve with changes (a changed action
 * in place of the proposed one) or extend the deadline. A quorum's approval says which of how many it is.
 */
export function AnswerForm({
  gate,
  reason,
  amended,
  form,
  answering,
  onAnswer,
}: {
  gate: Gate;
  reason: string;
  amended: string | null;
  form: ReturnType<typeof useAnswerForm>;
  /** An answer to this gate is in flight. */
  answering: boolean;
  onAnswer: (decision: Decision) => void;
}) {
  const { reasonId, amendId, quorum, mine, missingApprovals, amending, unchanged, emptyAmend } = form;
  return (
    <form
      className="gate-answer"
      aria-label={`Answer ${actionLabel(gate)}`}
      onSubmit={(event) => {
        event.preventDefault();
        onAnswer("approve");
      }}
    >
      <div className="ui-field">
        <label htmlFor={reasonId} className="ui-label">
          Reason <span className="ui-label__optional">(optional)</span>
        </label>
        <textarea
          id={reasonId}
          className="ui-textarea gate-answer__reason"
          rows={2}
          maxLength={2000}
          value={reason}
          placeholder="Why you approve or deny; kept with the answer and in the audit log."
          onChange={(event) => form.setReason(event.target.value)}
        />
      </div>
      {amending ? (
        <div className="ui-field">
          <label htmlFor={amendId} className="ui-label">
            Action to approve
          </label>
          <textarea
            id={amendId}
            className="ui-textarea"
            rows={4}
            maxLength={16 * 1024}
            value={amended ?? ""}
            aria-describedby={`${amendId}-hint`}
            onChange={(event) => form.setAmended(event.target.value)}
          />
          <p id={`${amendId}-hint`} className="ui-hint">
            {emptyAmend
              ? "Enter the action to approve, or cancel the changes."
              : unchanged
                ? "Unchanged from the proposed action: change it, or approve as proposed."
                : "The fleet runs this in place of the proposed action; the gate keeps both."}
          </p>
        </div>
      ) : null}
      <div className="gate-answer__buttons">
        {amending ? (
          <>
            <GuardedButton
              variant="primary"
              pending={answering}
              unavailable={
                emptyAmend
                  ? "Enter the action to approve first."
                  : unchanged
                    ? "The action is unchanged: approve as proposed instead."
                    : null
              }
              onClick={() => onAnswer("approve")}
            >
              Approve changed action
            </GuardedButton>
            <Button variant="ghost" onClick={form.cancelAmending}>
              Cancel
            </Button>
          </>
        ) : (
          <>
            <GuardedButton
              type="submit"
              variant="primary"
              pending={answering}
              aria-keyshortcuts="a"
              unavailable={
                mine
                  ? `You approved already; it waits for ${missingApprovals} more ${missingApprovals === 1 ? "approval" : "approvals"}.`
                  : null
              }
            >
              {quorum
                ? `Approve (${gate.approvals.filter((a) => a.counted).length + 1} of ${gate.required_approvals})`
                : "Approve"}
            </GuardedButton>
            <Button
              variant="danger"
              pending={answering}
              aria-keyshortcuts="d"
              onClick={() => onAnswer("deny")}
            >
              Deny
            </Button>
            {quorum ? null : (
              <Button variant="ghost" onClick={form.startAmending}>
                Approve with changes…
              </Button>
            )}
            {gate.extended_at === null ? (
              <Button variant="ghost" onClick={form.startExtending}>
                Extend deadline…
              </Button>
            ) : null}
          </>
        )}
      </div>
    </form>
  );
}
