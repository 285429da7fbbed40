"use client";

import {
  Badge,
  Button,
  Callout,
  formatUtc,
  GuardedButton,
  JsonViewer,
  ProblemAlert,
  RelativeTime,
  StatusBadge,
} from "@fleet/ui";
import { useId } from "react";
import { Fact, none } from "../../components/fact.tsx";
import { Link } from "../../components/link.tsx";
import { usePrincipalWords } from "../../lib/names.ts";
import { fleetHref } from "../../lib/urls.ts";
import { type AnswerResult, type Decision, type Gate, outcomeWord, standingSentence } from "./answer.ts";
import { Countdown } from "./countdown.tsx";
import { ExtendForm } from "./extend-form.tsx";
import { actionLabel, gateStatusVariants } from "./labels.ts";
import { Who } from "./who.tsx";

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

export interface GateDetailProps {
  gate: Gate;
  me: string | undefined;
  draft: Draft;
  onDraft: (draft: Draft) => void;
  onAnswer: (decision: Decision) => void;
  /** An answer to this gate is in flight. */
  answering: boolean;
  /** What the last answer from this console came to. */
  result: AnswerResult | undefined;
}

/**
 * One gate in full: what the fleet wants to do and why, the evidence, and, while it is pending, the reason
 * field and the three answers. A lost race says whose answer stands, not that something failed.
 */
export function GateDetail({ gate, me, draft, onDraft, onAnswer, answering, result }: GateDetailProps) {
  const headingId = useId();
  const reasonId = useId();
  const amendId = useId();
  const pending = gate.status === "pending";
  const quorum = gate.required_approvals > 1;
  const mine = gate.approvals.some((approval) => approval.user_id === me || approval.by === `user:${me}`);
  const missingApprovals = gate.required_approvals - gate.approvals.length;
  const evidenceKeys = Object.keys(gate.evidence).length;
  const amending = draft.amended !== null;
  const unchanged = draft.amended !== null && draft.amended.trim() === gate.proposed_action.trim();
  const emptyAmend = draft.amended !== null && draft.amended.trim() === "";

  return (
    <section className="gate-detail" aria-labelledby={headingId} data-gate-id={gate.gate_id}>
      <header className="gate-detail__header">
        <div>
          <h2 id={headingId} className="gate-detail__title">
            {actionLabel(gate)}
          </h2>
          <p className="gate-detail__sub">
            <Link href={fleetHref({ workspaceId: gate.workspace_id, fleetId: gate.fleet_id, tab: "events" })}>
              {gate.fleet_name}
            </Link>{" "}
            · requested <RelativeTime value={gate.requested_at} />
          </p>
        </div>
        <span className="gate-detail__badges">
          {pending && gate.escalated_at !== null ? <Badge tone="danger">Escalated</Badge> : null}
          <StatusBadge status={gate.status} variants={gateStatusVariants} pending={answering} />
        </span>
      </header>
      {draft.extended ? (
        <p role="status" className="gate-notice gate-notice--done">
          {draft.extended}
        </p>
      ) : null}

      <AnswerNotice result={result} me={me} />

      <dl className="facts facts--two">
        <Fact term="Kind">
          <code>{gate.gate_kind}</code>
        </Fact>
        <Fact term={pending ? "Time left" : "Deadline"}>
          {pending ? (
            <Countdown requestedAt={gate.requested_at} timeoutAt={gate.timeout_at} />
          ) : (
            formatUtc(gate.timeout_at)
          )}
        </Fact>
        {gate.rule !== null ? (
          <Fact term="Rule">
            <code>{gate.rule}</code>
          </Fact>
        ) : null}
        {quorum || gate.approvals.length > 0 ? (
          <Fact term="Approvals">
            <span className="gate-quorum" data-approvals={gate.approvals.length}>
              {gate.approvals.length} of {gate.required_approvals} approvals
            </span>
            {gate.approvals.length > 0 ? (
              <ul className="gate-approvals">
                {gate.approvals.map((approval) => (
                  <li key={approval.user_id}>
                    <Who principal={approval.by} me={me} /> · <RelativeTime value={approval.at} />
                  </li>
                ))}
              </ul>
            ) : null}
          </Fact>
        ) : null}
        {gate.escalated_at !== null ? (
          <Fact term="Escalated">
            <RelativeTime value={gate.escalated_at} />
          </Fact>
        ) : null}
        {gate.extended_at !== null ? (
          <Fact term="Extended">
            <RelativeTime value={gate.extended_at} /> by{" "}
            {gate.extended_by ? <Who principal={gate.extended_by} me={me} /> : "someone"}
            {gate.extension_reason ? <span className="gate-extension">“{gate.extension_reason}”</span> : null}
          </Fact>
        ) : null}
        {!pending ? (
          <>
            <Fact
              term={`${outcomeWord(gate.status)[0]?.toUpperCase()}${outcomeWord(gate.status).slice(1)} by`}
            >
              {gate.resolved_by ? <Who principal={gate.resolved_by} me={me} /> : none}
            </Fact>
            <Fact term="Answered">
              {gate.resolved_at !== null ? <RelativeTime value={gate.resolved_at} /> : none}
            </Fact>
          </>
        ) : null}
      </dl>

      <div className="gate-detail__block">
        <h3 className="gate-detail__label">Blast radius</h3>
        <p className="gate-detail__text" dir="auto">
          {gate.blast_radius}
        </p>
      </div>
      <div className="gate-detail__block">
        <h3 className="gate-detail__label">Detail</h3>
        <p className="gate-detail__text" dir="auto">
          {gate.detail}
        </p>
      </div>
      <div className="gate-detail__block">
        <h3 className="gate-detail__label">Proposed action</h3>
        <pre className="gate-detail__action" dir="auto">
          {gate.proposed_action}
        </pre>
      </div>
      {gate.amended_action !== null ? (
        <div className="gate-detail__block">
          <h3 className="gate-detail__label">Approved with changes</h3>
          <pre className="gate-detail__action gate-detail__action--amended" dir="auto">
            {gate.amended_action}
          </pre>
        </div>
      ) : null}
      {gate.reason ? (
        <div className="gate-detail__block">
          <h3 className="gate-detail__label">Reason given</h3>
          <p className="gate-detail__text" dir="auto">
            {gate.reason}
          </p>
        </div>
      ) : null}

      <details className="gate-detail__evidence" open>
        <summary>
          Evidence ({evidenceKeys} {evidenceKeys === 1 ? "field" : "fields"})
        </summary>
        <JsonViewer label="Evidence" text={JSON.stringify(gate.evidence)} />
      </details>

      {pending && draft.extending ? (
        <div className="gate-answer">
          <ExtendForm
            gate={gate}
            onDone={(message) => onDraft({ ...draft, extending: false, extended: message })}
          />
        </div>
      ) : pending ? (
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
              value={draft.reason}
              placeholder="Why you approve or deny; kept with the answer and in the audit log."
              onChange={(event) => onDraft({ ...draft, reason: event.target.value })}
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
                value={draft.amended ?? ""}
                aria-describedby={`${amendId}-hint`}
                onChange={(event) => onDraft({ ...draft, amended: event.target.value })}
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
                <Button variant="ghost" onClick={() => onDraft({ ...draft, amended: null })}>
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
                    ? `Approve (${gate.approvals.length + 1} of ${gate.required_approvals})`
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
                  <Button
                    variant="ghost"
                    onClick={() => onDraft({ ...draft, amended: gate.proposed_action })}
                  >
                    Approve with changes…
                  </Button>
                )}
                {gate.extended_at === null ? (
                  <Button
                    variant="ghost"
                    onClick={() => onDraft({ ...draft, extending: true, extended: null })}
                  >
                    Extend deadline…
                  </Button>
                ) : null}
              </>
            )}
          </div>
        </form>
      ) : null}
    </section>
  );
}

/** What this console's last answer to the gate came to: done, lost to another answer, or failed. */
function AnswerNotice({ result, me }: { result: AnswerResult | undefined; me: string | undefined }) {
  const words = usePrincipalWords();
  if (result === undefined) return null;
  if (result.kind === "failed") return <ProblemAlert problem={result.problem} />;
  if (result.kind === "lost") {
    return (
      <div role="status" className="gate-notice">
        <Callout tone="info">
          <p>
            <strong>
              {standingSentence(result.standing, me, formatUtc(result.standing.resolvedAt), words)}.
            </strong>{" "}
            The first answer stands; yours was not recorded.
          </p>
        </Callout>
      </div>
    );
  }
  const { answer } = result;
  const waiting = answer.required_approvals - answer.approvals.length;
  return (
    <p role="status" className="gate-notice gate-notice--done">
      {result.decision === "deny"
        ? "You denied this gate."
        : answer.outcome === "pending"
          ? `Your approval counts: ${answer.approvals.length} of ${answer.required_approvals}. The gate waits for ${waiting} more.`
          : "You approved this gate."}
    </p>
  );
}
