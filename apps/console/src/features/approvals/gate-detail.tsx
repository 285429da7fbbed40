"use client";

import { Badge, RelativeTime, StatusBadge } from "@fleet/ui";
import { useId } from "react";
import { Link } from "../../components/link.tsx";
import { useLacking } from "../../lib/access.ts";
import { fleetHref, runHref } from "../../lib/urls.ts";
import type { AnswerResult, Decision, Gate } from "./answer.ts";
import { AnswerForm } from "./answer-form.tsx";
import { AnswerNotice } from "./answer-notice.tsx";
import { ExtendForm } from "./extend-form.tsx";
import { GateFacts, GateRequest } from "./gate-facts.tsx";
import { actionLabel, gateStatusVariants } from "./labels.ts";
import { type Draft, useAnswerForm } from "./use-answer-form.ts";
import "./answer-form.css";
import "./answer-notice.css";
import "./gate-detail.css";

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
  // Someone who may read gates but not answer them (a Viewer) is told the scope, not offered answers.
  const cannotAnswer = useLacking("approval:resolve");
  const headingId = useId();
  const form = useAnswerForm(gate, draft, onDraft, me);
  const pending = gate.status === "pending";

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
            {gate.event_id ? (
              <>
                {" "}
                ·{" "}
                <Link
                  href={runHref({
                    workspaceId: gate.workspace_id,
                    fleetId: gate.fleet_id,
                    eventId: gate.event_id,
                  })}
                >
                  {pending ? "the run waiting for this answer" : "the run that asked"}
                </Link>
              </>
            ) : null}
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
      <GateFacts gate={gate} me={me} />
      <GateRequest gate={gate} />

      {pending && cannotAnswer ? (
        <p className="gate-answer muted" data-cannot-answer>
          Answering {cannotAnswer.charAt(0).toLowerCase()}
          {cannotAnswer.slice(1)}
        </p>
      ) : pending && draft.extending ? (
        <div className="gate-answer">
          <ExtendForm gate={gate} onDone={form.extended} />
        </div>
      ) : pending ? (
        <AnswerForm
          gate={gate}
          reason={draft.reason}
          amended={draft.amended}
          form={form}
          answering={answering}
          onAnswer={onAnswer}
        />
      ) : null}
    </section>
  );
}
