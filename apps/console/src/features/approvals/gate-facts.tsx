import { formatUtc, JsonViewer, RelativeTime } from "@fleet/ui";
import { Fact, none } from "../../components/fact.tsx";
import { type Gate, outcomeWord } from "./answer.ts";
import { Countdown } from "./countdown.tsx";
import { Who } from "./who.tsx";
import "../../styles/facts.css";
import "./quorum.css";
import "./gate-facts.css";
import { countOf } from "../../lib/format.ts";

/** A gate's facts: its kind, its time left or deadline, its rule, approvals, escalation, extension, answer. */
export function GateFacts({ gate, me }: { gate: Gate; me: string | undefined }) {
  const pending = gate.status === "pending";
  const quorum = gate.required_approvals > 1;
  const counted = gate.approvals.filter((approval) => approval.counted).length;
  return (
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
          <span className="gate-quorum" data-approvals={counted}>
            {counted} of {countOf(gate.required_approvals, "approval")}
          </span>
          {gate.approvals.length > 0 ? (
            <ul className="gate-approvals">
              {gate.approvals.map((approval) => (
                <li key={approval.user_id}>
                  <Who principal={approval.by} me={me} /> · <RelativeTime value={approval.at} />
                  {/* Kept in the history, but no longer part of the quorum (the person left, say). */}
                  {approval.counted ? null : " · not counted"}
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
          <Fact term={`${outcomeWord(gate.status)[0]?.toUpperCase()}${outcomeWord(gate.status).slice(1)} by`}>
            {gate.resolved_by ? <Who principal={gate.resolved_by} me={me} /> : none}
          </Fact>
          <Fact term="Answered">
            {gate.resolved_at !== null ? <RelativeTime value={gate.resolved_at} /> : none}
          </Fact>
        </>
      ) : null}
    </dl>
  );
}

/**
 * What the fleet asks, as it asked it: the blast radius, the detail, the proposed action (and the changed
 * one it was approved with), the reason given, and the evidence field by field.
 */
export function GateRequest({ gate }: { gate: Gate }) {
  const evidenceKeys = Object.keys(gate.evidence).length;
  return (
    <>
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
    </>
  );
}
