"use client";

import { Button, formatUtc } from "@fleet/ui";
import { useEffect, useId, useRef, useState } from "react";
import { usePrincipalWords } from "../../lib/names.ts";
import { type AnswerResult, type Decision, type Gate, standingSentence } from "./answer.ts";
import { actionLabel } from "./labels.ts";
import "./bulk-answer.css";

/**
 * Answers the checked gates at once: a "select all on this page" box, the count, an optional reason sent
 * with every answer (kept with each gate and on its audit row, as a single answer's is), approve and deny.
 * The outcome of each gate is listed after, since some may have been answered by someone else meanwhile.
 */
export function BulkAnswer({
  gates,
  checked,
  onCheckAll,
  onClear,
  onAnswer,
  busy,
}: {
  gates: Gate[];
  checked: ReadonlySet<string>;
  onCheckAll: (all: boolean) => void;
  onClear: () => void;
  onAnswer: (decision: Decision, reason: string) => void;
  busy: Decision | null;
}) {
  const box = useRef<HTMLInputElement>(null);
  const reasonId = useId();
  const [reason, setReason] = useState("");
  const count = gates.filter((gate) => checked.has(gate.gate_id)).length;
  const all = count > 0 && count === gates.length;
  useEffect(() => {
    if (box.current) box.current.indeterminate = count > 0 && !all;
  }, [count, all]);
  return (
    <fieldset className="bulk">
      <legend className="ui-visually-hidden">Answer several gates</legend>
      <label className="bulk__all">
        <input
          ref={box}
          type="checkbox"
          checked={all}
          onChange={(event) => onCheckAll(event.target.checked)}
        />
        Select all on this page
      </label>
      {count > 0 ? (
        <div className="bulk__actions">
          <span className="bulk__count">{count} selected</span>
          <label htmlFor={reasonId} className="ui-visually-hidden">
            Reason for the {count} selected (optional)
          </label>
          <input
            id={reasonId}
            className="ui-input bulk__reason"
            maxLength={2000}
            value={reason}
            placeholder="Reason (optional)"
            onChange={(event) => setReason(event.target.value)}
          />
          <Button
            size="sm"
            variant="primary"
            pending={busy === "approve"}
            disabled={busy !== null && busy !== "approve"}
            onClick={() => onAnswer("approve", reason)}
          >
            Approve {count}
          </Button>
          <Button
            size="sm"
            variant="danger"
            pending={busy === "deny"}
            disabled={busy !== null && busy !== "deny"}
            onClick={() => onAnswer("deny", reason)}
          >
            Deny {count}
          </Button>
          <Button size="sm" variant="ghost" onClick={onClear}>
            Clear selection
          </Button>
        </div>
      ) : null}
    </fieldset>
  );
}

/** What each gate of a bulk answer came to, one line a gate, until dismissed. */
export function BulkOutcome({
  results,
  labels,
  me,
  onDismiss,
}: {
  results: AnswerResult[];
  /** The action and fleet of each gate answered, by id (the gates may have left the list since). */
  labels: Record<string, string>;
  me: string | undefined;
  onDismiss: () => void;
}) {
  const done = results.filter((result) => result.kind === "answered").length;
  const words = usePrincipalWords();
  return (
    <section className="bulk-outcome" aria-label="Outcome of the answers">
      <div className="bulk-outcome__head">
        <p role="status" className="bulk-outcome__summary">
          {done} of {results.length} answered
          {done < results.length ? `; ${results.length - done} not` : ""}.
        </p>
        <Button size="sm" variant="ghost" onClick={onDismiss}>
          Dismiss
        </Button>
      </div>
      <ul className="bulk-outcome__list">
        {results.map((result) => (
          <li key={result.gateId} data-outcome={result.kind}>
            <span className="bulk-outcome__gate">{labels[result.gateId] ?? result.gateId}</span>
            <span className="bulk-outcome__what">
              {result.kind === "answered"
                ? result.decision === "deny"
                  ? "Denied"
                  : result.answer.outcome === "pending"
                    ? `Approved (${result.answer.approvals.filter((a) => a.counted).length} of ${result.answer.required_approvals}); waits for more`
                    : "Approved"
                : result.kind === "lost"
                  ? standingSentence(result.standing, me, formatUtc(result.standing.resolvedAt), words)
                  : `${result.problem.title}: ${result.problem.detail}`}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** "github · merge on Release bot": how a gate is named in the outcome list. */
export function gateName(gate: Gate): string {
  return `${actionLabel(gate)} on ${gate.fleet_name}`;
}
